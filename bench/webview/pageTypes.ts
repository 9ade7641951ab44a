// What the in-page harness (bench/webviewPage/harness.ts) reports back to the Node side.

export interface StreamResult {
  totalMs: number;
  idealMs: number;
  frames: number;
  frameP95Ms: number;
  longTasks: number;
  longTaskMs: number;
  domNodes: number;
  textOk: boolean;
  resyncs: number;
}

export interface BootResult {
  lastScreenMs: number;
  domNodes: number;
}
