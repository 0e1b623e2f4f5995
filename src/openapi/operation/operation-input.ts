import type { JsonObject, JsonValue } from "../../json-value.js";
import type { OpenApiCallShape } from "../types.js";
import type { InputParameter } from "./parameters.js";
import type { JsonBody } from "./request-body.js";

/** The input key that carries the JSON body. */
export const BODY_KEY = "body";

/** The flat input object's schema and the call shape that maps it onto the request. */
export interface OperationInput {
  readonly inputSchema: JsonObject;
  readonly call: OpenApiCallShape;
}

/**
 * One closed object: each parameter under its own name, the body under
 * "body". Closed (additionalProperties: false) so nothing a guest adds can
 * reach the request.
 */
export function buildOperationInput(parameters: readonly InputParameter[], body: JsonBody | null): OperationInput {
  return {
    inputSchema: joinInputSchema(parameters, body),
    call: {
      pathParams: namesAt(parameters, "path"),
      queryParams: namesAt(parameters, "query"),
      headerParams: namesAt(parameters, "header"),
      body: body === null ? null : { contentType: body.contentType, required: body.required },
    },
  };
}

/** What one input key holds: a parameter under its name, or the body. */
export interface InputMember {
  readonly name: string;
  readonly required: boolean;
  readonly schema: JsonValue;
}

/** The closed input object of parameters and body (under BODY_KEY), as both supported and refused operations show it. */
export function joinInputSchema(
  parameters: readonly InputMember[],
  body: Pick<InputMember, "required" | "schema"> | null,
): JsonObject {
  const properties: Record<string, JsonValue> = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    properties[parameter.name] = parameter.schema;
    if (parameter.required) required.push(parameter.name);
  }
  if (body !== null) {
    properties[BODY_KEY] = body.schema;
    if (body.required) required.push(BODY_KEY);
  }
  const inputSchema: JsonObject = { type: "object", properties, additionalProperties: false };
  if (required.length > 0) inputSchema.required = required;
  return inputSchema;
}

function namesAt(parameters: readonly InputParameter[], location: InputParameter["location"]): string[] {
  return parameters.filter((parameter) => parameter.location === location).map((parameter) => parameter.name);
}
