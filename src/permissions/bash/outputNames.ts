import { commandBase, spellsOption, type SimpleCommand } from './commands';
import { backsUp } from './walkLinks';

// Programs that write files under names no single word spells: a backup's name and suffix, tar's
// names under a `-C` folder, a prefix joined to a suffix of the program's own. The path checks judge
// words; these say where a command's written names are not words.

/**
 * Why a command writes a file under a name no word spells, which the path checks cannot judge: a
 * backup copy (`mv -b -S de src/y .clau` makes `.claude`, pass 65 C2, M2), or tar's names read in
 * a folder `-C` moves it to (`tar -C l -cf - D/id_rsa` through a committed link, pass 65 C1).
 */
export function unspelledNames(c: SimpleCommand): string | undefined {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  if (['cp', 'mv', 'ln', 'install'].includes(name) && backsUp(c)) return `${name} makes a backup under a name no word of the command spells (the target's name and a suffix)`;
  if (['tar', 'bsdtar', 'gtar'].includes(name) && c.words.slice(1).some((w) => w === undefined || /^-[A-Za-z]*C/.test(w) || spellsOption(w, '--directory') || /^[a-zA-Z]*C[a-zA-Z]*$/.test(w) && c.words.indexOf(w) === 1)) {
    return `${name} -C reads and writes the names after it in a folder of its own, which the checks do not follow`;
  }
  // csplit writes its prefix joined to the suffix format (`-f src -b '/../l/H/.bashrc%.0d'`), a
  // name no word spells whole (pass 68 H3).
  if (name === 'csplit' && c.words.slice(1).some((w) => w === undefined || /^-[A-Za-z]*b/.test(w) || spellsOption(w, '--suffix-format'))) {
    return 'csplit names its files by the prefix joined to a suffix format, a name no word of the command spells';
  }
  return undefined;
}

/**
 * split and csplit name their files by a prefix and a suffix of their own (`split -l1 f ~/.bash`
 * makes `~/.bashrc` among its pieces): under deny rules, a prefix given is a name the rules cannot
 * judge whole.
 */
export function prefixedNames(c: SimpleCommand): string | undefined {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  if (name === 'csplit' && c.words.slice(1).some((w) => w === undefined || /^-[A-Za-z]*f/.test(w) || spellsOption(w, '--prefix'))) return 'csplit names its files by the prefix given and numbers of its own';
  if (name !== 'split') return undefined;
  // The operands after the options: the input, then the prefix.
  const operands = c.words.slice(1).filter((w, i, all) => w === undefined || (!w.startsWith('-') || w === '-') && !/^-[A-Za-z]*[abCln]$|^--(bytes|lines|line-bytes|number|suffix-length|additional-suffix|filter|separator)$/.test(all[i - 1] ?? ''));
  return operands.length >= 2 || operands.includes(undefined) || c.words.some((w) => w !== undefined && spellsOption(w, '--additional-suffix')) ? 'split names its files by the prefix given and letters or numbers of its own' : undefined;
}
