export interface HostileWorkspace {
  root: string;
  ws: string;
  outside: string;
  attacker: string;
}
export function makeHostileWorkspace(opts?: { root?: string; attackerUrl?: string; git?: boolean; fifo?: boolean; hugeBytes?: number; projectDeny?: string[] }): HostileWorkspace;
