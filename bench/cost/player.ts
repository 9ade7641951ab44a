// Plays a session's script from the stand-in's side: decides for each request whether it is the
// main loop's next turn (and answers with the next Read, or the final answer) or a background
// request (session notes, memory extraction, summaries, titles…), which gets a short answer of
// its own. It works from what the request holds, so it serves any agent: the read tool and its
// path parameter are looked up in the request's own tool list.
import { isAbsolute, join } from 'node:path';
import type { RecordedRequest, ScriptedTurn } from '../../test/standin/server';
import { blockTokens, countTextTokens } from '../../test/standin/tokens';
import { readSequence, type SessionSpec } from './session';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export type Classification =
  | { kind: 'main'; prompt: number; step: number; readsBefore: number; firstAnswer: boolean }
  | { kind: 'background'; why: string };

// What background requests ask for, across agents: Threadline's session notes, memory
// extraction and summary prompts; the reference's and the peers' summary, title and memory
// requests. A summary handed back after a compaction ("continues from an earlier
// conversation") is not one of them: the main loop goes on from it.
const BACKGROUND_INSTRUCTION =
  /about to be replaced by a summary|(write|create|produce|provide)[^.]{0,60}\bsummary|summari[sz]e (the|this) conversation|update the session notes|session notes|should be remembered|worth remembering|extract[^.]{0,40}memor|title for|generate a (short |concise )?title/i;

const READ_TOOL_NAMES = ['Read', 'read', 'read_file', 'readFile', 'view', 'ReadFile', 'read_files'];
const PATH_PARAMS = ['file_path', 'filePath', 'path', 'filepath', 'absolute_path', 'target_file', 'file'];

interface ToolCallShape {
  name: string;
  param: string;
  /** The parameter is a list of file entries (Cline's read_files takes `files: [{path}]`). */
  list?: 'entries' | 'paths';
}

function lastUserBlocks(body: Json): Json[] {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!isObject(m) || m.role !== 'user') continue;
    if (typeof m.content === 'string') return [{ type: 'text', text: m.content }];
    return Array.isArray(m.content) ? (m.content as unknown[]).filter(isObject) : [];
  }
  return [];
}

function toolShape(body: Json, names: readonly string[], params: readonly string[]): ToolCallShape | undefined {
  const tools = Array.isArray(body.tools) ? (body.tools as unknown[]).filter(isObject) : [];
  for (const name of names) {
    const tool = tools.find((t) => t.name === name);
    if (!tool) continue;
    const props = isObject(tool.input_schema) && isObject(tool.input_schema.properties) ? (tool.input_schema.properties as Json) : {};
    const param = params.find((p) => p in props);
    if (param) return { name, param };
    for (const [key, schema] of Object.entries(props)) {
      if (!isObject(schema) || schema.type !== 'array' || !isObject(schema.items)) continue;
      if (schema.items.type === 'string') return { name, param: key, list: 'paths' };
      const itemProps = isObject(schema.items.properties) ? schema.items.properties : {};
      if ('path' in itemProps) return { name, param: key, list: 'entries' };
    }
  }
  return undefined;
}

function readInput(shape: ToolCallShape, path: string): Json {
  if (shape.list === 'entries') return { [shape.param]: [{ path }] };
  if (shape.list === 'paths') return { [shape.param]: [path] };
  return { [shape.param]: path };
}

function textsOf(blocks: readonly Json[]): string[] {
  return blocks.filter((b) => b.type === 'text' && typeof b.text === 'string').map((b) => b.text as string);
}

/** The script's side of one session; one player per agent run. */
export class SessionPlayer {
  readonly reads: string[];
  private prompt = -1;
  private step = 0;
  private pendingId: string | undefined;
  private idSeq = 0;
  private readonly issued = new Map<string, number>();
  private readonly backgroundIds = new Set<string>();
  private readonly answered = new Set<string>();
  readonly classified = new WeakMap<RecordedRequest, Classification>();
  /** Global read index of each Read call the script issued, by tool_use id. */
  readonly readOfCall = new Map<string, number>();
  /** Tokens of the answer given at each main turn (`prompt:step`), for the floor. */
  readonly answerTokens = new Map<string, number>();
  finished = false;

  constructor(
    readonly session: SessionSpec,
    private readonly cwd: string,
  ) {
    this.reads = readSequence(session);
  }

  /** Reads issued before prompt p's first turn. */
  private base(p: number): number {
    return this.session.prompts.slice(0, p).reduce((n, q) => n + q.reads.length, 0);
  }

  private nextId(kind: string): string {
    this.idSeq++;
    return `toolu_${kind}${String(this.idSeq).padStart(5, '0')}${this.session.name}`;
  }

  private classify(body: Json): Classification {
    const blocks = lastUserBlocks(body);
    const resultIds = blocks.filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id));
    const texts = textsOf(blocks).filter((t) => !t.trimStart().startsWith('<system-reminder>'));
    const prompts = this.session.prompts;
    const mentions = (p: number) => p >= 0 && p < prompts.length && texts.some((t) => t.includes(prompts[p]!.text));
    const foreign = texts.filter((t) => !prompts.some((p) => t.includes(p.text)) && BACKGROUND_INSTRUCTION.test(t));
    if (foreign.length) return { kind: 'background', why: foreign[0]!.slice(0, 200) };
    if (resultIds.some((id) => this.backgroundIds.has(id))) return { kind: 'background', why: 'answer to a background tool call' };
    if (!toolShape(body, READ_TOOL_NAMES, PATH_PARAMS)) return { kind: 'background', why: 'no read tool offered' };
    const main = (prompt: number, step: number): Classification => {
      const key = `${prompt}:${step}`;
      const firstAnswer = !this.answered.has(key);
      return { kind: 'main', prompt, step, readsBefore: this.base(prompt) + step, firstAnswer };
    };
    if (this.pendingId && resultIds.includes(this.pendingId)) return main(this.prompt, this.step);
    if (resultIds.some((id) => this.issued.has(id))) return { kind: 'background', why: 'results of an earlier turn only' };
    if (mentions(this.prompt + 1) && resultIds.length === 0) return main(this.prompt + 1, 0);
    // The same prompt again with no result yet: a retry (after a refusal, say) of its first turn.
    if (mentions(this.prompt) && resultIds.length === 0 && this.step <= 1) return main(this.prompt, 0);
    // Mid-prompt, the main loop's tools, no background instruction and no stale result: the
    // loop going on after a compaction folded the last result into a summary.
    if (this.pendingId && resultIds.length === 0) return main(this.prompt, this.step);
    return { kind: 'background', why: texts[0]?.slice(0, 80) ?? 'no prompt and no pending result' };
  }

  /** The stand-in's `respond` hook. */
  respond(body: Json, rec: RecordedRequest): ScriptedTurn {
    const c = this.classify(body);
    this.classified.set(rec, c);
    if (c.kind === 'background') return this.backgroundAnswer(body);
    this.answered.add(`${c.prompt}:${c.step}`);
    this.prompt = c.prompt;
    const spec = this.session.prompts[c.prompt]!;
    const key = `${c.prompt}:${c.step}`;
    if (c.step >= spec.reads.length) {
      this.step = c.step + 1;
      this.pendingId = undefined;
      if (c.prompt === this.session.prompts.length - 1) this.finished = true;
      this.answerTokens.set(key, countTextTokens(spec.final));
      return { content: [{ type: 'text', text: spec.final }] };
    }
    const shape = toolShape(body, READ_TOOL_NAMES, PATH_PARAMS)!;
    const id = this.nextId('r');
    const path = spec.reads[c.step]!;
    this.issued.set(id, c.readsBefore);
    this.readOfCall.set(id, c.readsBefore);
    this.pendingId = id;
    this.step = c.step + 1;
    const call = { type: 'tool_use' as const, id, name: shape.name, input: readInput(shape, isAbsolute(path) ? path : join(this.cwd, path)) };
    this.answerTokens.set(key, blockTokens(call));
    return { content: [call] };
  }

  /** For a request the stand-in refused (no answer): main or background, without advancing. */
  classifyOnly(body: Json): Classification {
    return this.classify(body);
  }

  private backgroundAnswer(body: Json): ScriptedTurn {
    const blocks = lastUserBlocks(body);
    if (blocks.some((b) => b.type === 'tool_result' && this.backgroundIds.has(String(b.tool_use_id)))) return { content: [{ type: 'text', text: 'Done.' }] };
    const text = textsOf(blocks).join('\n');
    // Threadline's session-notes fork edits one file: let it, so compaction can use the notes.
    const notes = /Update the session notes in (\S+?) so that/.exec(text);
    const edit = toolShape(body, ['Edit', 'edit'], ['file_path', 'filePath']);
    if (notes && edit) {
      const id = this.nextId('b');
      this.backgroundIds.add(id);
      const line = `- ${this.session.title}: ${this.prompt + 1} of ${this.session.prompts.length} prompts, ${this.step} turns into the current one.`;
      const call = { type: 'tool_use' as const, id, name: edit.name, input: { [edit.param]: notes[1], old_string: '## Next steps', new_string: `## Next steps\n${line}` } };
      // Asked to save memories in the same reply (the notes and extraction in one request): nothing to save.
      return { content: /should be remembered/.test(text) ? [{ type: 'text', text: 'Nothing to save.' }, call] : [call] };
    }
    if (/summar/i.test(text)) {
      return {
        content: [
          {
            type: 'text',
            text: `<summary>\n1. Primary request and intent: ${this.session.title}; the user's prompts are given in the conversation.\n2. Key technical concepts: generated TypeScript modules built with combine().\n3. Files and code: the files read so far export generated constants; none needs a change.\n4. Errors and fixes: none.\n5. Problem solving: reading the files in the order asked.\n6. All user messages: as above.\n7. Pending tasks: the remaining reads.\n8. Current work: reading the next file in order.\n9. Next step: read the next file.\n</summary>`,
          },
        ],
      };
    }
    return { content: [{ type: 'text', text: 'Nothing to save.' }] };
  }
}
