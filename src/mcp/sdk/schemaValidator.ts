// The SDK checks a tool's structuredContent against the outputSchema the server gave. The schema
// is the server's to write, so its patterns (pattern, patternProperties) run on the engine the
// host hands over (RE2, see ../patterns.ts), never on JavaScript's backtracking RegExp.
import { Ajv, AjvJsonSchemaValidator, addFormats } from '@modelcontextprotocol/client/validators/ajv';
import type { PatternTest } from '../patterns';

/** Without an engine from the host, patterns are not checked at all: better than a hang. */
const unchecked: PatternTest = () => ({ test: () => true });

/** The validator given to the SDK's Client: Ajv as the SDK configures it by default, with `engine` for patterns. */
export function safeSchemaValidator(engine: PatternTest = unchecked): AjvJsonSchemaValidator {
  // Ajv names the engine in code it generates for standalone use; Threadline never generates any.
  const regExp = Object.assign((pattern: string) => engine(pattern), { code: 'patternEngine' });
  const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true, code: { regExp } });
  addFormats(ajv);
  return new AjvJsonSchemaValidator(ajv);
}
