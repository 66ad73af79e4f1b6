/**
 * One deadline at a time, moved without touching the timer in the common case. A SQLite child
 * answers cheap requests back to back, each with its own deadline from the moment it starts; setting
 * and clearing a Node timer per request costs more than the request on sets of cheap questions. Here
 * a later deadline keeps the armed timer, which, when it fires early, re-arms for what is left; only
 * an earlier deadline re-arms at once. `clear()` disarms (nothing keeps the process alive then).
 */
export class DeadlineTimer {
  private timer: NodeJS.Timeout | null = null;
  /** performance.now() when the armed timer fires. */
  private firesAt = Infinity;
  /** performance.now() of the deadline; Infinity when there is none. */
  private deadlineAt = Infinity;

  constructor(private readonly onExpired: () => void) {}

  /** The deadline is now `ms` from now, replacing any other. */
  set(ms: number): void {
    this.deadlineAt = performance.now() + ms;
    if (this.timer && this.firesAt <= this.deadlineAt) return;
    this.arm(ms);
  }

  /** No deadline any more. */
  clear(): void {
    this.deadlineAt = Infinity;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.firesAt = performance.now() + ms;
    this.timer = setTimeout(() => this.fire(), ms);
  }

  private fire(): void {
    this.timer = null;
    const left = this.deadlineAt - performance.now();
    if (left === Infinity) return;
    // Node's timers count whole milliseconds: within one of the deadline it is the deadline.
    if (left > 1) this.arm(left);
    else {
      this.deadlineAt = Infinity;
      this.onExpired();
    }
  }
}
