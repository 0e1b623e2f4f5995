import type { JsonObject } from "../../json-value.js";
import { jsonMediaTypes } from "./json-media.js";
import { normalizeSchema } from "./normalized-schema.js";
import { type InputMember, joinInputSchema } from "./operation-input.js";
import { describedParameterSchema, isOwnerFilled, type ParameterContext } from "./parameters.js";
import { withDescription } from "./request-body.js";

/**
 * The input an operation declares, read as the source wrote it, for an operation intake
 * refuses before compiling (an array query parameter, a form body, a cookie, a style):
 * every parameter under its name and the body under "body", in the same closed object a
 * supported operation has, so the mount can still show the operation, marked not validated.
 * A parameter's schema is its `schema`, else its first `content` media's; a body's is its JSON
 * media's, else its first media's. Parameters the owner or the transport fills stay out, as
 * they do of a supported operation's input; a later parameter whose name is taken is dropped.
 * Throws a ForageError when a schema cannot be copied (recursive, too deep).
 */
export function readSourceInput(
  item: Record<string, unknown>,
  operation: Record<string, unknown>,
  context: Pick<ParameterContext, "credentialParameters" | "authParameter">,
): JsonObject {
  const members: InputMember[] = [];
  for (const parameter of [...declared(operation.parameters), ...declared(item.parameters)]) {
    if (isOwnerFilled(parameter, context) || members.some((member) => member.name === parameter.name)) continue;
    const schema = parameter.schema ?? firstMediaSchema(parameter.content);
    members.push({
      name: parameter.name,
      required: parameter.required === true || parameter.in === "path",
      schema: describedParameterSchema(parameter, schema ?? {}),
    });
  }
  return joinInputSchema(members, sourceBody(operation.requestBody));
}

type Declared = Record<string, unknown> & { readonly name: string; readonly in: string };

// The operation's own parameters come first, so they win over the Path Item's of the same name.
function declared(parameters: unknown): Declared[] {
  if (!Array.isArray(parameters)) return [];
  return parameters.filter(
    (parameter): parameter is Declared =>
      isRecord(parameter) && typeof parameter.name === "string" && typeof parameter.in === "string",
  );
}

function sourceBody(requestBody: unknown): Pick<InputMember, "required" | "schema"> | null {
  if (!isRecord(requestBody)) return null;
  const schema = firstMediaSchema(requestBody.content);
  const normalized = normalizeSchema(schema ?? {});
  return { required: requestBody.required === true, schema: withDescription(normalized, requestBody.description) };
}

/** The schema of a content map's JSON media, else of its first media that has one. */
function firstMediaSchema(content: unknown): unknown {
  if (!isRecord(content)) return undefined;
  const order = [...jsonMediaTypes(content), ...Object.keys(content)];
  for (const mediaType of order) {
    const media = content[mediaType];
    if (isRecord(media) && media.schema !== undefined) return media.schema;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
