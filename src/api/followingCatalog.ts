import { Emitter, type Event } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import type { CatalogSnapshot, ModelCatalog } from './modelCatalog';
import type { ModelFacts, ModelInfo, ModelOverrides, ModelSource, Resolution } from './models';

/**
 * The model catalog of the endpoint in use. A catalog belongs to one endpoint (its list and its
 * cache), so a new `apiBaseUrl` gets a new catalog, asked at once; listeners and the agent keep
 * this one object and follow.
 */
export class FollowingCatalog implements ModelSource, IDisposable {
  private inner: ModelCatalog;
  private innerListener: IDisposable;
  private readonly changed = new Emitter<CatalogSnapshot>();
  readonly onDidChange: Event<CatalogSnapshot> = this.changed.event;
  private endpoint: string;
  private readonly stopWatching: (() => void) | undefined;

  /** `endpoint.watch`, when given, calls back with each new endpoint (a settings change) and returns its unsubscribe. */
  constructor(
    private readonly create: (endpoint: string) => ModelCatalog,
    endpoint: { initial: string; watch?(onChange: (endpoint: string) => void): () => void },
  ) {
    this.endpoint = endpoint.initial;
    this.inner = create(this.endpoint);
    this.innerListener = this.follow(this.inner);
    this.stopWatching = endpoint.watch?.((next) => this.setEndpoint(next));
  }

  get currentEndpoint(): string {
    return this.endpoint;
  }

  /** A changed endpoint replaces the catalog and fetches its list; the same one does nothing. */
  setEndpoint(endpoint: string): void {
    if (endpoint === this.endpoint) return;
    this.endpoint = endpoint;
    this.innerListener.dispose();
    this.inner.dispose();
    this.inner = this.create(endpoint);
    this.innerListener = this.follow(this.inner);
    this.changed.fire(this.inner.snapshot());
    void this.inner.refresh();
  }

  snapshot(): CatalogSnapshot {
    return this.inner.snapshot();
  }

  list(): ModelFacts[] {
    return this.inner.list();
  }

  refresh(options: { force?: boolean } = {}): Promise<CatalogSnapshot> {
    return this.inner.refresh(options);
  }

  current(idOrAlias: string, overrides: ModelOverrides = {}): ModelInfo {
    return this.inner.current(idOrAlias, overrides);
  }

  resolve(idOrAlias: string, overrides: ModelOverrides = {}): Promise<Resolution> {
    return this.inner.resolve(idOrAlias, overrides);
  }

  dispose(): void {
    this.stopWatching?.();
    this.innerListener.dispose();
    this.inner.dispose();
    this.changed.dispose();
  }

  private follow(catalog: ModelCatalog): IDisposable {
    // Only the catalog in use speaks: a late answer from a replaced one is not news.
    return catalog.onDidChange((snapshot) => {
      if (catalog === this.inner) this.changed.fire(snapshot);
    });
  }
}
