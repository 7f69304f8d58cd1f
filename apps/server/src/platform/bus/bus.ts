/**
 * Publish/subscribe between the parts of Gatehouse: site-message counts now,
 * live session monitoring and task logs later. In-process on the embedded profile, Redis pub/sub
 * when REDIS_URL is set, so a message published on one instance reaches every instance.
 * Messages are JSON values; delivery is at most once and never to a closed bus.
 */
export type BusHandler = (message: unknown) => void;

export interface Bus {
  publish(channel: string, message: unknown): Promise<void>;
  /** Returns the function that ends this subscription. */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
