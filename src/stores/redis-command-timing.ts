import type { Redis } from 'ioredis';

/** Told of each Redis command once answered or failed: its name (lower case), whether it failed, its time. */
export type RedisCommandObserver = (command: string, failed: boolean, seconds: number) => void;

/**
 * Times every command `redis` sends, pipelines' and transactions' included: each goes through `sendCommand`,
 * the one seam ioredis has for them (the OpenTelemetry ioredis instrumentation wraps the same method). A command
 * refused at once because Redis is away (no offline queue) counts as a failure of about 0 s.
 */
export function timeRedisCommands(redis: Redis, observe: RedisCommandObserver): void {
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command, stream) => {
    const started = performance.now();
    const result = send(command, stream);
    command.promise.then(
      () => observe(command.name.toLowerCase(), false, (performance.now() - started) / 1000),
      () => observe(command.name.toLowerCase(), true, (performance.now() - started) / 1000),
    );
    return result;
  }) as Redis['sendCommand'];
}
