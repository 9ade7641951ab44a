import { z } from 'zod';
import { parseToolInput, toInputSchema } from '../tools/schema';
import type { Tool } from '../tools/types';

const compactInput = z.object({ focus: z.string().optional().describe('What the summary should concentrate on') });
type CompactInput = z.output<typeof compactInput>;

/**
 * The model's own request to compact, between its Compact tool (which asks) and the compactor
 * (which takes it before the next request). Both are handed the same one, so neither needs the
 * other to exist first.
 */
export class CompactRequest {
  private focus: string | undefined | null = null;

  ask(focus: string | undefined): void {
    this.focus = focus;
  }

  /** The pending request's focus (undefined: none given), once; null when nothing is pending. */
  take(): string | undefined | null {
    const focus = this.focus;
    this.focus = null;
    return focus;
  }
}

/**
 * Lets the model ask for a compaction itself (after finishing a large sub-task, say). It only
 * leaves the request: the compaction runs before the next request, once this call has its result.
 */
export function compactTool(request: CompactRequest): Tool<CompactInput> {
  return {
    name: 'Compact',
    description:
      'Summarises the conversation so far to free context, then continues from the summary. Use it when a large piece of work is finished and its details are no longer needed, ' +
      'or when the context is nearly full. Give `focus` to say what the summary must keep. Anything you still need should be stated in your own words before calling it.',
    inputSchema: toInputSchema(compactInput),
    traits: {},
    parse: (input) => {
      const r = parseToolInput(compactInput, input);
      if (!r.ok) return r;
      const focus = r.value.focus?.trim();
      return { ok: true, value: focus ? { focus } : {} };
    },
    isReadOnly: () => true,
    summarize: (i) => (i.focus ? `focus: ${i.focus}` : 'the conversation'),
    paths: () => [],
    async call(i) {
      request.ask(i.focus);
      return { content: 'The conversation will be compacted before the next request; continue the task from the summary.' };
    },
  };
}
