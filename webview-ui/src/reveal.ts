// The host can ask the panel to bring a message into view (`view/reveal`); the list listens.
type Listener = (id: string) => void;
const listeners = new Set<Listener>();

export function onReveal(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function reveal(id: string): void {
  for (const l of listeners) l(id);
}
