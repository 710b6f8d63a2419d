import {
  assertTopic,
  encodePayload,
  LocalFanout,
  type Bus,
  type BusHandler,
  type JsonValue,
  type PlatformLogger,
} from './bus.ts';

/** The bus of a single process (the default, with SQLite): events never leave this process. */
export function createInProcessBus<T extends object>(options: { logger: PlatformLogger }): Bus<T> {
  const fanout = new LocalFanout(options.logger);
  let closed = false;

  return {
    async publish(topic, payload) {
      if (closed) throw new Error('The bus is closed; events can no longer be published.');
      assertTopic(topic);
      fanout.deliver(topic, encodePayload(topic, payload));
    },
    subscribe(topic, handler) {
      assertTopic(topic);
      const h = handler as BusHandler<JsonValue>;
      fanout.add(topic, h);
      return () => {
        fanout.remove(topic, h);
      };
    },
    async ready() {},
    async close() {
      closed = true;
      fanout.clear();
    },
  };
}
