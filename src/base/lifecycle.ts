export interface IDisposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** Owns a set of disposables; disposing the store disposes them all, once, even if one throws. */
export class DisposableStore implements IDisposable {
  private readonly items = new Set<IDisposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends IDisposable>(item: T): T {
    if (this.disposed) {
      // Adding to a dead store would leak silently; dispose at once instead.
      item.dispose();
      return item;
    }
    this.items.add(item);
    return item;
  }

  delete(item: IDisposable): void {
    if (this.items.delete(item)) item.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items) {
      try {
        item.dispose();
      } catch (err) {
        errors.push(err);
      }
    }
    this.items.clear();
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'Several disposables failed');
  }
}

export abstract class Disposable implements IDisposable {
  protected readonly disposables = new DisposableStore();

  protected _register<T extends IDisposable>(item: T): T {
    return this.disposables.add(item);
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
