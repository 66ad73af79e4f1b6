"""BIRD's EX evaluation algorithm, reproduced for perf/bird-eval.ts (the baseline it is timed against).

Written from the published semantics of BIRD's evaluation.py (not copied from it):
- a multiprocessing.Pool of N processes; one task per (predicted, gold) pair, submitted with
  apply_async and collected by a callback;
- per pair: a fresh sqlite3.connect to the question's database, cursor.execute(predicted) and
  fetchall(), then cursor.execute(gold) and fetchall(); res = 1 iff set(predicted) == set(gold);
- one timeout around the whole pair with func_timeout, the library BIRD's script calls, when it is
  installed (`pip install func_timeout==4.3.5`); otherwise its mechanism: the pair runs in a daemon
  thread and the worker waits with thread.join(timeout); a pair still running then scores 0 (SQLite
  keeps the thread busy until done either way; func_timeout's stop request lands only in Python code);
- the command line parsed with argparse, as BIRD's script does: its start-up imports both modules;
- any exception scores 0; results are sorted by index and accuracy is reported by difficulty.

Usage: python3 bird_reference_eval.py QUESTIONS PREDICTIONS DB_ROOT PROCESSES TIMEOUT_SECONDS OUT_JSON
(QUESTIONS: dev.json; PREDICTIONS: {"0": "SQL\\t----- bird -----\\tdb_id", ...}).
The output JSON names the timeout mechanism used ("timeout_by": "func_timeout" or "thread-join").
"""

import argparse
import json
import multiprocessing as mp
import os
import sqlite3
import threading

try:
    from func_timeout import FunctionTimedOut, func_timeout
except ImportError:  # its mechanism, below
    func_timeout = None


def execute_pair(predicted_sql, gold_sql, db_path):
    conn = sqlite3.connect(db_path)
    try:
        cursor = conn.cursor()
        cursor.execute(predicted_sql)
        predicted = cursor.fetchall()
        cursor.execute(gold_sql)
        gold = cursor.fetchall()
        return 1 if set(predicted) == set(gold) else 0
    finally:
        conn.close()


def execute_with_timeout(predicted_sql, gold_sql, db_path, timeout):
    if func_timeout is not None:
        try:
            return func_timeout(timeout, execute_pair, args=(predicted_sql, gold_sql, db_path))
        except FunctionTimedOut:
            return 0
        except Exception:  # BIRD: any error scores 0
            return 0
    outcome = {}

    def target():
        try:
            outcome["res"] = execute_pair(predicted_sql, gold_sql, db_path)
        except Exception:  # BIRD: any error scores 0
            outcome["res"] = 0

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    return outcome.get("res", 0) if not thread.is_alive() else 0


def evaluate_one(index, predicted_sql, gold_sql, db_path, timeout):
    return {"sql_idx": index, "res": execute_with_timeout(predicted_sql, gold_sql, db_path, timeout)}


def main():
    parser = argparse.ArgumentParser(description="BIRD's EX evaluation algorithm")
    for name in ("questions", "predictions", "db_root", "processes", "timeout", "out"):
        parser.add_argument(name)
    args = parser.parse_args()
    questions_file, predictions_file, db_root, processes, timeout, out = (
        args.questions,
        args.predictions,
        args.db_root,
        args.processes,
        args.timeout,
        args.out,
    )
    with open(questions_file) as f:
        questions = json.load(f)
    with open(predictions_file) as f:
        predictions = json.load(f)
    results = []
    pool = mp.Pool(processes=int(processes))
    for i, q in enumerate(questions):
        predicted_sql = predictions.get(str(i), "").split("\t----- bird -----\t")[0]
        db_path = os.path.join(db_root, q["db_id"], q["db_id"] + ".sqlite")
        pool.apply_async(
            evaluate_one,
            args=(i, predicted_sql, q["SQL"], db_path, float(timeout)),
            callback=results.append,
        )
    pool.close()
    pool.join()
    results.sort(key=lambda r: r["sql_idx"])
    by_difficulty = {}
    for r, q in zip(results, questions):
        for level in (q["difficulty"], "total"):
            count, correct = by_difficulty.get(level, (0, 0))
            by_difficulty[level] = (count + 1, correct + r["res"])
    accuracy = {level: 100.0 * c / n for level, (n, c) in by_difficulty.items()}
    with open(out, "w") as f:
        timeout_by = "thread-join" if func_timeout is None else "func_timeout"
        json.dump({"res": [r["res"] for r in results], "accuracy": accuracy, "timeout_by": timeout_by}, f)
    print(" ".join(f"{level} {value:.2f}" for level, value in sorted(accuracy.items())))


if __name__ == "__main__":
    main()
