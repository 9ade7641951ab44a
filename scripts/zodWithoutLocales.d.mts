import type { Plugin } from 'esbuild';

export declare const zodWithoutLocales: Plugin;
