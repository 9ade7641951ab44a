// The SDK checks a tool's structuredContent against the outputSchema the server gave. The schema
// and the output are the server's to write, and the check runs on the host's main thread: its
// patterns (pattern, patternProperties) run on the engine the host hands over (RE2, see
// ../patterns.ts), never on JavaScript's backtracking RegExp, and a check that could take longer
// than ../schemaCost.ts allows is not made (the output passes unchecked, and the log says so).
import { Ajv, AjvJsonSchemaValidator, addFormats } from '@modelcontextprotocol/client/validators/ajv';
import type { JsonSchemaValidator, JsonSchemaValidatorResult, jsonSchemaValidator } from '@modelcontextprotocol/client';
import type { PatternTest } from '../patterns';
import { checkCost, schemaShape } from '../schemaCost';

/** Without an engine from the host, patterns are not checked at all: better than a hang. */
const unchecked: PatternTest = () => ({ test: () => true });

const pass = <T>(input: unknown): JsonSchemaValidatorResult<T> => ({ valid: true, data: input as T, errorMessage: undefined });

/**
 * The validator given to the SDK's Client: Ajv with `engine` for patterns, stopping at the first
 * error (every error of a 2^N branching schema is 2^N objects), behind the cost bound.
 * `onUnchecked` hears why an output was let through unchecked.
 */
export function safeSchemaValidator(engine: PatternTest = unchecked, onUnchecked: (why: string) => void = () => undefined): jsonSchemaValidator {
  // Ajv names the engine in code it generates for standalone use; Threadline never generates any.
  const regExp = Object.assign((pattern: string) => engine(pattern), { code: 'patternEngine' });
  const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: false, code: { regExp } });
  addFormats(ajv);
  const inner = new AjvJsonSchemaValidator(ajv);
  const skip = (why: string) => onUnchecked(`a tool's structured output was not checked against its outputSchema: ${why}`);
  return {
    getValidator<T>(schema: Parameters<jsonSchemaValidator['getValidator']>[0]): JsonSchemaValidator<T> {
      const shape = schemaShape(schema);
      if (!shape.ok) {
        const why = shape.reason;
        return (input) => (skip(why), pass<T>(input));
      }
      const check = inner.getValidator<T>(schema);
      return (input) => {
        const cost = checkCost(schema, input);
        if (!cost.ok) return (skip(cost.reason), pass<T>(input));
        return check(input);
      };
    },
  };
}
