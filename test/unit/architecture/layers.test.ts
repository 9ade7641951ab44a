import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { depcruise } from '../../support/depcruise';

describe('the layer rules of npm run lint', () => {
  const base = {
    'src/agent/loop.ts': "import { h } from '../conversation/history';\nexport const loop = h;\n",
    'src/conversation/history.ts': 'export const h = 1;\n',
  };

  it('pass a tree whose imports run downward', () => {
    const r = depcruise(base);
    assert.equal(r.status, 0, r.out);
  });

  it('fail on an import from a lower layer to a higher one, naming the rule', () => {
    const r = depcruise({ ...base, 'src/context/probe.ts': "import { loop } from '../agent/loop';\nexport const p = loop;\n" });
    assert.notEqual(r.status, 0);
    assert.match(r.out, /layer-3-imports-upward: src\/context\/probe\.ts → src\/agent\/loop\.ts/);
  });

  it('count a type-only import, and fail on a cycle', () => {
    const r = depcruise({
      'src/cli/a.ts': "import type { B } from './b';\nexport type A = B | 1;\n",
      'src/cli/b.ts': "import type { A } from './a';\nexport type B = A | 2;\n",
    });
    assert.notEqual(r.status, 0);
    assert.match(r.out, /no-circular/);
  });

  it('fail when the webview imports the host beyond src/shared, or a new folder has no layer', () => {
    const r = depcruise({
      'src/state/app.ts': 'export const s = 1;\n',
      'webview-ui/src/view.ts': "import { s } from '../../src/state/app';\nexport const v = s;\n",
      'src/newthing/x.ts': "import { h } from '../conversation/history';\nexport const x = h;\n",
      'src/conversation/history.ts': 'export const h = 1;\n',
    });
    assert.notEqual(r.status, 0);
    assert.match(r.out, /webview-imports-only-shared/);
    assert.match(r.out, /unplaced-folder: src\/newthing\/x\.ts/);
  });
});
