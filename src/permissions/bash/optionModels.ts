// Some programs' options run programs, load code, or read and write files in more ways than any
// list of the dangerous ones keeps up with: curl has some 250 options (`--proto-default file`
// reads local files with no file: in sight), wget runs wgetrc commands given with -e and a
// program named by --use-askpass, gcc takes -wrapper, -B, -fplugin, -specs. Each pass found the
// next one. So for these a rule naming the program covers only the options known to be harmless,
// deny-by-default: any other option asks. Their values are still judged as files elsewhere.

import type { BashAnalysis } from './analyze';
import { commandBase, type SimpleCommand } from './commands';

interface Model {
  /** Short options without a value. */
  flags: string;
  /** Short options that take a value, glued or in the next word. */
  values: string;
  /** Long options without a value (without their dashes). */
  long: ReadonlySet<string>;
  /** Long options that take a value (`--x=v` or `--x v`). */
  longValues: ReadonlySet<string>;
  /** Whole words known to be harmless (wget's -nv, gcc's -O2): single-dash long options. */
  words?: readonly RegExp[];
  /** Single-dash words whose value is the next word (gcc's -o, -x, -include). */
  wordValues?: ReadonlySet<string>;
}

const set = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

const CURL: Model = {
  // Not -O, -J, --remote-name…: the file they write is named by the URL or the server, not a word.
  flags: 'sSLfiIvk46123jRZGgqNlaBpMVh#',
  values: 'XHdAeomuwbcrTFEyYzCUDxtPQ',
  long: set(`silent show-error location location-trusted fail fail-with-body include show-headers head verbose insecure compressed
    progress-bar no-progress-meter http1.0 http1.1 http2 http2-prior-knowledge http3 ipv4 ipv6 globoff no-buffer raw get create-dirs remote-time fail-early retry-connrefused retry-all-errors tcp-nodelay
    no-keepalive ssl-reqd tlsv1 tlsv1.2 tlsv1.3 version help junk-session-cookies parallel list-only append disable no-sessionid
    no-alpn http0.9 styled-output no-styled-output manual`),
  longValues: set(`request header data data-raw data-binary data-ascii data-urlencode json user-agent referer output output-dir
    max-time connect-timeout retry retry-delay retry-max-time user write-out cookie cookie-jar range upload-file form form-string
    cacert capath cert key limit-rate max-filesize url oauth2-bearer dump-header proxy proxy-user resolve connect-to max-redirs
    expect100-timeout parallel-max url-query trace trace-ascii stderr etag-save etag-compare hsts alt-svc aws-sigv4`),
};

const WGET: Model = {
  // Not -x, -r, -m, -p, -N, -c: they write files named by the server's paths (`.git/config`), or
  // write through a file already there (a link) instead of beside it.
  flags: 'qvSkEHLdhV',
  values: 'OoaPltTwQARDIXU',
  words: [/^-n[vcdHp]$/],
  long: set(`quiet verbose no-verbose server-response convert-links
    no-parent no-clobber no-directories no-host-directories adjust-extension spider no-check-certificate
    show-progress https-only inet4-only inet6-only no-cookies keep-session-cookies ignore-case span-hosts relative no-proxy debug
    help version content-on-error no-cache random-wait`),
  longValues: set(`output-document output-file append-output directory-prefix level tries timeout wait waitretry user-agent header
    post-data body-data method user password http-user http-password limit-rate accept reject domains exclude-domains
    include-directories exclude-directories quota progress max-redirect referer save-cookies load-cookies post-file body-file
    compression dns-timeout connect-timeout read-timeout cut-dirs accept-regex reject-regex regex-type default-page ca-certificate
    certificate private-key`),
};

// gcc's options are too many to list one by one; these shapes are the ones that only choose how
// code is compiled, warned about, preprocessed or linked. Left out on purpose: -wrapper, -B,
// -specs, -fplugin, -fuse-ld, --ld-path, -Wl, -Wa, -Wp, -Xlinker, -Xclang (which load or run
// programs), -fprofile/-fdump/-save-temps (which write where they are told), -T (a linker script).
const GCC: Model = {
  flags: 'cSEPCHvws',
  values: 'oxIDULl',
  words: [
    /^-O([0-3sgz]|fast)?$/,
    /^-g[\w-]*$/,
    /^-W(?!l,|a,|p,)[\w=+-]+$/,
    /^-std=[\w+]+$/,
    /^-m[\w=.+-]+$/,
    /^-f(?!plugin|profile|auto-profile|dump|use-ld|spec|save|create-profile|record|callgraph|stack-usage|lto-|ltrans)[\w=.+,-]+$/,
    /^-M(D|MD|M|G|P)?$/,
    /^-(pipe|pthread|shared|static|static-libgcc|static-libstdc\+\+|rdynamic|ansi|pedantic|pedantic-errors|nostdlib|nostdinc|nostdinc\+\+|nodefaultlibs|nostartfiles|dumpversion|dumpmachine|dumpfullversion|pie|no-pie|undef|trigraphs)$/,
  ],
  wordValues: set('-include -imacros -isystem -iquote -idirafter -MF -MT -MQ'),
  long: set('version help'),
  longValues: set(''),
};

const COMPILERS = /^(?:[\w.+]+-)?(?:gcc|g\+\+|c\+\+|cc|cpp|gfortran|clang|clang\+\+|clang-cpp)(?:-\d+(?:\.\d+)*)?$/;

function modelOf(program: string): Model | undefined {
  if (program === 'curl') return CURL;
  if (program === 'wget') return WGET;
  return COMPILERS.test(program) ? GCC : undefined;
}

/**
 * The first option of `words` (from `from` on) not known to be harmless for `program`, if the
 * program is one whose options are judged this way; `own` holds the words the rule itself spells.
 */
export function unmodelledOption(program: string, words: readonly (string | undefined)[], from: number, own: ReadonlySet<string>): string | undefined {
  const model = modelOf(program);
  if (!model) return undefined;
  for (let i = from; i < words.length; i++) {
    const w = words[i];
    // A word the shell computes is judged by the callers' own rules.
    if (w === undefined || own.has(w)) continue;
    if (w === '--') return undefined;
    if (!w.startsWith('-') || w === '-') continue;
    if (model.words?.some((r) => r.test(w))) continue;
    if (model.wordValues?.has(w)) {
      i++;
      continue;
    }
    if (w.startsWith('--')) {
      const name = w.slice(2).split('=')[0]!;
      if (model.long.has(name) && !w.includes('=')) continue;
      if (model.longValues.has(name)) {
        if (!w.includes('=')) i++;
        continue;
      }
      return w.split('=')[0];
    }
    for (let k = 1; k < w.length; k++) {
      const f = w[k]!;
      if (model.values.includes(f)) {
        if (k === w.length - 1) i++;
        break;
      }
      if (!model.flags.includes(f)) return `-${f}`;
    }
  }
  return undefined;
}

/**
 * Why a compiler among `commands` compiles text fed to it (`gcc -x c -`, `cpp <<< …`,
 * `/dev/stdin`): its `#include` lines read any file, and no check reads them. A source file's own
 * includes are the project's, as a build tool's are.
 */
export function compilesInput(a: BashAnalysis, commands: readonly SimpleCommand[]): string | undefined {
  for (const c of commands) {
    const name = c.words[0] === undefined ? undefined : commandBase(c.words[0]);
    if (name === undefined || !COMPILERS.test(name)) continue;
    const stdin = c.words.slice(1).some((w) => w === '-' || (w !== undefined && /^\/(dev\/(stdin|fd\/0)|proc\/(self|thread-self)\/fd\/0)$/.test(w)));
    const fed = a.opaque.some((o) => o.text === c.text && o.inputs.length > 0);
    if (stdin || fed || a.readsFrom.length > 0) return `${name} compiles text fed to it, whose #include lines may read any file and are read by no check`;
  }
  return undefined;
}

/** Programs that write files named by themselves, not by a word: compilers, assemblers, linkers, split, wget, curl, tag indexers. */
export function writesOwnNames(program: string): boolean {
  return COMPILERS.test(program) || /^(?:[\w.+]+-)?(?:as|ld|ld\.bfd|ld\.gold|ld\.lld)$/.test(program) || ['split', 'csplit', 'wget', 'curl', 'javac', 'ctags', 'etags', 'gtags', 'cscope'].includes(program);
}
