/** A command line the CLI cannot run: said on stderr with a pointer to --help, exit 2. */
export class UsageError extends Error {}

/** The flags as node:util's parseArgs gives them back. */
export type Values = { [key: string]: string | boolean | string[] | undefined };
