/**
 * A FIFO concurrency limiter: at most `concurrency` functions run at once, the rest wait in
 * arrival order. A waiting call whose signal aborts leaves the queue at once (rejecting with the
 * signal's reason) instead of holding its place until a slot frees.
 */

export interface Limiter {
  run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Functions running now. */
  readonly active: number;
  /** Functions waiting for a slot. */
  readonly pending: number;
  readonly concurrency: number;
}

interface Waiter {
  start: () => void;
}

export function createLimiter(concurrency: number): Limiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be an integer >= 1, got ${String(concurrency)}`);
  }
  let active = 0;
  const queue: Waiter[] = [];

  const release = (): void => {
    active--;
    const next = queue.shift();
    if (next) next.start();
  };

  const execute = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } finally {
      release();
    }
  };

  return {
    concurrency,
    get active() {
      return active;
    },
    get pending() {
      return queue.length;
    },
    run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      if (active < concurrency) {
        active++;
        return execute(fn);
      }
      return new Promise<T>((resolve, reject) => {
        const onAbort = (): void => {
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          reject(abortReason(signal as AbortSignal));
        };
        const waiter: Waiter = {
          start: () => {
            signal?.removeEventListener('abort', onAbort);
            active++;
            execute(fn).then(resolve, reject);
          },
        };
        queue.push(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
