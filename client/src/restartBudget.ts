/** Decides whether a crashed server may be restarted: at most `max` crashes in a
 * sliding window, so a server that dies on start-up does not loop forever. */
export class RestartBudget {
  private crashes: number[] = [];

  constructor(
    private readonly max = 3,
    private readonly windowMs = 3 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a crash; true when another restart is still allowed. */
  crashed(): boolean {
    const t = this.now();
    this.crashes = this.crashes.filter((c) => t - c < this.windowMs);
    this.crashes.push(t);
    return this.crashes.length <= this.max;
  }

  reset(): void {
    this.crashes = [];
  }
}
