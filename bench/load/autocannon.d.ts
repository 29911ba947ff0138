// The part of autocannon's API the load benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    /** Responses with a 4xx status. */
    '4xx': number;
    /** Responses with a 2xx status. */
    '2xx': number;
    errors: number;
    timeouts: number;
  }
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    /** Requests per second over all connections (unlimited when absent). */
    overallRate?: number;
    /** Cycled through, one per request; `setupRequest` may change each request before it is sent. */
    requests?: {
      setupRequest?: (request: { headers: Record<string, string> }) => { headers: Record<string, string> };
    }[];
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
