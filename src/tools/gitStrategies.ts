/** git's own merge strategies; any other name is a program `git-merge-NAME` that git runs (a name with a slash, one in the work tree). */
export const GIT_STRATEGIES: ReadonlySet<string> = new Set(['ort', 'recursive', 'resolve', 'octopus', 'ours', 'subtree']);
