import type { Document, DocumentOptions, ParseOptions, SchemaOptions } from 'yaml';
import { checkDeadline } from './deadline';

/**
 * What a YAML text may hold before it is refused. The YAML parser is synchronous and its work
 * grows with the count of tokens, their nesting and (when read as plain values) with what
 * aliases expand to: each is bounded before the document is built, so that time and memory
 * stay those of a real configuration whatever the text holds.
 */
export interface YamlLimits {
  /** Tokens (keys, values, punctuation, line breaks): a kubeconfig of a thousand contexts has some 120,000. */
  maxTokens: number;
  /** Nesting of collections, block and flow alike. */
  maxDepth: number;
  /** Aliases (`*name`): configurations need few or none, and each may expand a whole subtree. */
  maxAliases: number;
  /** Says what is being read, should -t expire meanwhile ("reading kubeconfig /x"). */
  what: string;
}

/** A YAML text beyond its limits; the message completes "<the file> …" ("holds more than 100 aliases"). */
export class YamlLimitError extends Error {}

/** The scalar marker the lexer emits before a scalar's source. */
const SCALAR = '\x1f';

/**
 * Parses one YAML document (the first; more are an error of the document, as in
 * parseDocument) within `limits`, checking the run's deadline as it goes; throws
 * YamlLimitError beyond a limit. Map keys are checked for duplicates in one pass per map
 * (the parser's own check compares every key with every other: minutes for 100,000 keys).
 * Errors carry `linePos` and end with " at line L, column C", as the parser's pretty errors do.
 */
export async function parseYamlBounded(text: string, options: ParseOptions & DocumentOptions & SchemaOptions, limits: YamlLimits): Promise<Document.Parsed> {
  // Loaded here only: a check that reads no YAML never pays for the parser.
  const { Composer, Lexer, LineCounter, Parser, YAMLParseError, isScalar, visit } = await import('yaml');
  const lines = new LineCounter();
  const parser = new Parser(lines.addNewLine);
  // Parser.parse() counts the first line itself; fed lexeme by lexeme, it is told here.
  lines.addNewLine(0);
  function* tokens() {
    let count = 0;
    let aliases = 0;
    let afterScalarMarker = false;
    for (const lexeme of new Lexer().lex(text)) {
      if (++count > limits.maxTokens) throw new YamlLimitError(`holds more than ${limits.maxTokens} YAML tokens`);
      if ((count & 1023) === 0) checkDeadline(limits.what);
      if (!afterScalarMarker && lexeme.charCodeAt(0) === 0x2a /* * */ && ++aliases > limits.maxAliases)
        throw new YamlLimitError(`holds more than ${limits.maxAliases} aliases`);
      afterScalarMarker = lexeme === SCALAR;
      yield* parser.next(lexeme);
      if (parser.stack.length > limits.maxDepth) throw new YamlLimitError(`nests collections more than ${limits.maxDepth} deep`);
    }
    yield* parser.end();
  }
  const composer = new Composer({ ...options, uniqueKeys: false });
  let doc: Document.Parsed | undefined;
  for (const next of composer.compose(tokens(), true, text.length)) {
    if (!doc) doc = next;
    else {
      doc.errors.push(new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents'));
      break;
    }
  }
  const parsed = doc!;
  if (options.uniqueKeys !== false) {
    visit(parsed, {
      Map(_key, map) {
        const seen = new Set<unknown>();
        for (const pair of map.items) {
          // `<<` is YAML 1.1's merge key, which may be given more than once.
          if (!isScalar(pair.key) || pair.key.value === '<<') continue;
          if (seen.has(pair.key.value))
            parsed.errors.push(new YAMLParseError([pair.key.range?.[0] ?? 0, pair.key.range?.[1] ?? 0], 'DUPLICATE_KEY', 'Map keys must be unique'));
          seen.add(pair.key.value);
        }
      },
    });
    parsed.errors.sort((a, b) => a.pos[0] - b.pos[0]);
  }
  for (const error of [...parsed.errors, ...parsed.warnings]) {
    const at = lines.linePos(error.pos[0]);
    error.linePos = [at];
    error.message += ` at line ${at.line}, column ${at.col}`;
  }
  return parsed;
}
