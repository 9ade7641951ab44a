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
  /** Short or single-dash options allowed only with a value that passes (ssh's `-o Key=value`). */
  checked?: ReadonlyMap<string, (value: string) => boolean>;
}

const set = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

// curl's write-out format writes a file of its own (`%output{>>~/.bashrc}`, curl 8.3 and later),
// and `@file` reads the format from a file no check reads.
const writeOut = (value: string) => !value.startsWith('@') && !/%\s*output\s*\{/i.test(value);

const CURL: Model = {
  // Not -O, -J, --remote-name…: the file they write is named by the URL or the server, not a word.
  flags: 'sSLfiIvk46123jRZGgqNlaBpMVh#',
  values: 'XHdAeomubcrTFEyYzCUDxtPQ',
  checked: new Map([
    ['w', writeOut],
    ['--write-out', writeOut],
  ]),
  long: set(`silent show-error location location-trusted fail fail-with-body include show-headers head verbose insecure compressed
    progress-bar no-progress-meter http1.0 http1.1 http2 http2-prior-knowledge http3 ipv4 ipv6 globoff no-buffer raw get create-dirs remote-time fail-early retry-connrefused retry-all-errors tcp-nodelay
    no-keepalive ssl-reqd tlsv1 tlsv1.2 tlsv1.3 version help junk-session-cookies parallel list-only append disable no-sessionid
    no-alpn http0.9 styled-output no-styled-output manual`),
  longValues: set(`request header data data-raw data-binary data-ascii data-urlencode json user-agent referer output output-dir
    max-time connect-timeout retry retry-delay retry-max-time user cookie cookie-jar range upload-file form form-string
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

// ssh's settings name programs it runs (ProxyCommand, LocalCommand, KnownHostsCommand), libraries
// it loads (PKCS11Provider, SecurityKeyProvider) and files it reads or writes; -F names a whole
// settings file. Only settings that tune the connection pass with -o.
const SSH_SETTINGS = set(`batchmode connecttimeout connectionattempts stricthostkeychecking port user loglevel serveraliveinterval
  serveralivecountmax compression identitiesonly passwordauthentication pubkeyauthentication preferredauthentications
  kbdinteractiveauthentication addressfamily requesttty tcpkeepalive exitonforwardfailure checkhostip ciphers macs
  kexalgorithms hostkeyalgorithms numberofpasswordprompts ipqos rekeylimit visualhostkey updatehostkeys`);
const sshSetting = (value: string) => {
  const key = /^\s*([A-Za-z]+)\s*(=|\s)/.exec(value)?.[1]?.toLowerCase();
  return key !== undefined && SSH_SETTINGS.has(key) && !/[%$`]/.test(value);
};
const SSH_CHECKED = new Map([['o', sshSetting]]);

// Left out of the ssh family: -F (a settings file), -S (a program, or a socket written anywhere),
// -D (scp/sftp: a local program as the server), -J (a jump host run through a command built from
// it), -I (a library loaded), -E (a log written anywhere), -L/-R (unix sockets written anywhere),
// sftp's -b (a batch file whose `!` lines run locally).
const SSH: Model = { flags: '46AaCfGgKkMNnqsTtVvXxYy', values: 'BbceilmPpWwo', long: set(''), longValues: set(''), checked: SSH_CHECKED };
const SCP: Model = { flags: '346ABCOpqRrsTv', values: 'cilPo', long: set(''), longValues: set(''), checked: SSH_CHECKED };
const SFTP: Model = { flags: '46AaCfNpqrv', values: 'BcilPRo', long: set(''), longValues: set(''), checked: SSH_CHECKED };

// openssl's -engine, -provider, -provider-path and -config load libraries; -keyform engine, a
// -passin other than pass: (env:ANTHROPIC_API_KEY), -writerand, -sess_out and -keylogfile read the
// environment or write where they are told. Every option is one word with one dash (OpenSSL 3
// also takes two). An option that takes a value in one command and none in another (`-verify`)
// counts as taking none, so that the next word is judged too.
const OPENSSL_FLAGS = `noout text hex base64 a A e d p P nosalt salt pbkdf2 nodes noenc new x509 pubout pubin binary r c brief
  showcerts subject issuer dates startdate enddate serial fingerprint modulus pubkey ocsp_uri email hash subject_hash
  issuer_hash purpose check quiet verify ign_eof status verify_return_error tls1_2 tls1_3 no_tls1_3 crlf noverify
  help version list batch utf8`;
const OPENSSL_VALUES = `in out inform outform key keyout cert certfile CAfile CApath CAkey CA signkey days subj newkey
  sigopt pkeyopt md iter K iv S connect servername alpn starttls name set_serial extfile extensions reqexts addext
  checkend nameopt certopt algorithm pkeyopt cipher rand sign prverify signature digest keyfile`;
const OPENSSL_DIGESTS = /^--?(md5|sha\d*(-\d+)?|sha3-\d+|blake2[bs]\d+|sm3|shake\d+|(aes|des|des3|chacha20|camellia|aria|bf|cast5?|sm4)(-[\w-]+)?)$/;
const OPENSSL: Model = {
  flags: '',
  values: '',
  words: [new RegExp(`^--?(${OPENSSL_FLAGS.split(/\s+/).filter(Boolean).join('|')})$`), OPENSSL_DIGESTS],
  wordValues: new Set(OPENSSL_VALUES.split(/\s+/).filter(Boolean).flatMap((w) => [`-${w}`, `--${w}`])),
  checked: new Map(['-passin', '-passout', '-pass', '--passin', '--passout', '--pass'].map((w) => [w, (v: string) => v.startsWith('pass:')])),
  long: set(''),
  longValues: set(''),
};

// kubectl's global options choose the cluster, the credentials and the settings file: a
// `--kubeconfig` the clone ships runs the credential program it names, and `--server` with
// `--certificate-authority` sends your token to any host (pass 32 K1, K2). Only options that
// choose what is shown pass; `-o` with a template file reads one.
const kubeOutput = (value: string) => !/file=/i.test(value);
const KUBECTL: Model = {
  flags: 'AwhfpW',
  values: 'nlcLo',
  checked: new Map([
    ['o', kubeOutput],
    ['--output', kubeOutput],
  ]),
  long: set(`all-namespaces watch watch-only show-labels no-headers show-kind ignore-not-found output-watch-events show-managed-fields
    previous timestamps all-containers follow help prefix ignore-errors`),
  longValues: set(`namespace selector field-selector sort-by label-columns chunk-size request-timeout context container since since-time
    tail limit-bytes subresource raw template max-log-requests pod-running-timeout`),
};

// gpg starts helper programs it is told of (`--agent-program`, `--dirmngr-program`,
// `--photo-viewer`, `--exec-path`), reads settings and keyrings from files (`--options`,
// `--homedir`, `--keyring`) and loads extensions (pass 35 G2). Only options that choose what is
// decrypted, verified, listed or how it is printed pass.
const GPG: Model = {
  flags: 'abcdekKqsvnt',
  values: 'oruz',
  long: set(`armor decrypt encrypt sign clearsign clear-sign detach-sign verify list-keys list-public-keys list-secret-keys list-sigs
    check-sigs fingerprint with-colons with-fingerprint with-subkey-fingerprint with-keygrip batch yes no quiet verbose no-tty symmetric
    list-packets show-keys dearmor enarmor store version help no-default-recipient throw-keyids no-armor textmode`),
  longValues: set(`recipient hidden-recipient local-user default-key output pinentry-mode passphrase passphrase-fd status-fd logger-fd
    compress-level cipher-algo digest-algo print-md trust-model keyid-format`),
};

// ssh-keygen loads a library it is told of (`-D`, `-w`, `-O sk-provider=`), reads keys from a
// token (`-K`) and writes the system's host keys (`-A`) (pass 35 K3). Only showing, hashing,
// converting and making keys in files a word names passes.
const SSH_KEYGEN: Model = { flags: 'lvqHyeiLBcphg', values: 'FfEtbCNPmnIVzsY', long: set(''), longValues: set('') };

const COMPILERS = /^(?:[\w.+]+-)?(?:gcc|g\+\+|c\+\+|cc|cpp|gfortran|clang|clang\+\+|clang-cpp)(?:-\d+(?:\.\d+)*)?$/;

function modelOf(program: string): Model | undefined {
  if (program === 'curl') return CURL;
  if (program === 'wget') return WGET;
  if (program === 'ssh') return SSH;
  if (program === 'scp') return SCP;
  if (program === 'sftp') return SFTP;
  if (program === 'openssl') return OPENSSL;
  if (program === 'kubectl' || program === 'oc') return KUBECTL;
  if (program === 'gpg' || program === 'gpg2') return GPG;
  if (program === 'ssh-keygen') return SSH_KEYGEN;
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
    // `-in=file` (OpenSSL 3 reads a value after =); the value is judged as a file elsewhere.
    if (w.includes('=') && model.wordValues?.has(w.slice(0, w.indexOf('=')))) continue;
    const wordCheck = model.checked?.get(w);
    if (wordCheck) {
      const value = words[++i];
      if (value === undefined || !wordCheck(value)) return w;
      continue;
    }
    if (w.startsWith('--')) {
      const name = w.slice(2).split('=')[0]!;
      const longCheck = model.checked?.get(`--${name}`);
      if (longCheck) {
        const value = w.includes('=') ? w.slice(w.indexOf('=') + 1) : words[++i];
        if (value === undefined || !longCheck(value)) return `--${name}`;
        continue;
      }
      if (model.long.has(name) && !w.includes('=')) continue;
      if (model.longValues.has(name)) {
        if (!w.includes('=')) i++;
        continue;
      }
      return w.split('=')[0];
    }
    for (let k = 1; k < w.length; k++) {
      const f = w[k]!;
      const check = model.checked?.get(f);
      if (check) {
        // A value the shell computes is judged by no check.
        const value = k === w.length - 1 ? words[++i] : w.slice(k + 1);
        if (value === undefined || !check(value)) return `-${f}`;
        break;
      }
      if (model.values.includes(f)) {
        if (k === w.length - 1) i++;
        break;
      }
      if (!model.flags.includes(f)) return model.flags || model.values ? `-${f}` : w.split('=')[0];
    }
  }
  return undefined;
}

/** Programs that read commands from their input, and what those commands can reach. */
function readsCommands(program: string): string | undefined {
  if (COMPILERS.test(program)) return `${program} compiles text fed to it, whose #include lines may read any file and are read by no check`;
  if (program === 'sqlite3') return 'sqlite3 runs the SQL and dot-commands fed to it, which can run programs and read or write any file, and are read by no check';
  if (program === 'sftp') return "sftp runs the commands fed to it, whose ! lines run programs here and whose put and get reach any file, read by no check";
  if (['groff', 'nroff', 'troff', 'mandoc', 'soelim', 'man'].includes(program)) return `${program} renders the text fed to it, whose .so lines read any file, read by no check`;
  if (program === 'ed' || program === 'red' || program === 'ex') return `${program} runs the commands fed to it, whose ! lines run programs and whose r and w reach any file, read by no check`;
  return undefined;
}

/**
 * Why a program among `commands` runs text fed to it (`gcc -x c -`, `cpp <<< …`, `/dev/stdin`,
 * `sqlite3 db < q.sql`, `ed f <<< '!x'`): no check reads that text. A source file's own includes
 * are the project's, as a build tool's are.
 */
export function runsFedText(a: BashAnalysis, commands: readonly SimpleCommand[]): string | undefined {
  for (const c of commands) {
    const name = c.words[0] === undefined ? undefined : commandBase(c.words[0]);
    const why = name === undefined ? undefined : readsCommands(name);
    if (why === undefined) continue;
    const stdin = c.words.slice(1).some((w) => w === '-' || (w !== undefined && /^\/(dev\/(stdin|fd\/0)|proc\/(self|thread-self)\/fd\/0)$/.test(w)));
    const fed = a.opaque.some((o) => o.text === c.text && o.inputs.length > 0);
    if (stdin || fed || a.readsFrom.length > 0) return why;
  }
  return undefined;
}

/** Programs that write files named by themselves, not by a word: compilers, assemblers, linkers, split, wget, curl, tag indexers. */
export function writesOwnNames(program: string): boolean {
  return COMPILERS.test(program) || /^(?:[\w.+]+-)?(?:as|ld|ld\.bfd|ld\.gold|ld\.lld)$/.test(program) || ['split', 'csplit', 'wget', 'curl', 'javac', 'ctags', 'etags', 'gtags', 'cscope'].includes(program);
}
