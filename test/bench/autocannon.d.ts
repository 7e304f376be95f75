// The part of autocannon 9's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  /** a thenable tracker: await it for the result, stop() ends the run early */
  function autocannon(opts: Options): PromiseLike<Result> & { stop(): void };
  export default autocannon;
}
