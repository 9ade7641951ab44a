import { toDisposable, type IDisposable } from './lifecycle';
import { onUnexpectedError } from './unexpectedError';

export type Event<T> = (listener: (e: T) => void) => IDisposable;

/** A typed event source; expose `event` as `onDidX` and keep `fire` private to the owner. */
export class Emitter<T> implements IDisposable {
  private listeners = new Set<(e: T) => void>();
  private disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return toDisposable(() => undefined);
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  };

  fire(value: T): void {
    // Copy so a listener that unsubscribes during delivery does not skip its neighbour; one
    // listener's error must not keep the event from the others (as VS Code's Emitter does).
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (err) {
        onUnexpectedError(err);
      }
    }
  }

  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}
