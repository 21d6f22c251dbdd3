"""Schema hooks: every operation documents the one error format for its error statuses."""

ERROR = {
    "type": "object",
    "description": "The one error format (/api/protocol/ lists the codes).",
    "properties": {
        "code": {"type": "string", "description": "a stable reason code"},
        "message": {"type": "string", "description": "for people, in their language"},
        "detail": {"type": "string"},
        "fields": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
        "params": {"type": "object", "additionalProperties": True},
    },
    "required": ["code", "message"],
}
ERROR_STATUSES = {
    "400": "invalid request (`invalid` with `fields`, `malformed_message`, or a rule's code)",
    "401": "`login_required`: no session or API token, or an unknown or revoked token",
    "403": "`forbidden` or a rule's code: you may not do that",
    "404": "`not_found`: no such object, or not visible to you",
    "405": "`method_not_allowed`",
    "406": "`not_acceptable`",
    "409": "the object's state does not allow it now (e.g. `stale_version`, `table_full`)",
    "413": "`too_large`: the body is over 2.5 MB",
    "415": "`unsupported_media_type`: send JSON",
    "422": "an illegal game action: the engine's reason code, with `params`",
    "429": "`rate_limited` (see `Retry-After`)",
}


def add_error_responses(result, generator, request, public):
    """drf-spectacular post-processing: the Error component and the error responses."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR
    ref = {"$ref": "#/components/schemas/Error"}
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            for code, text in ERROR_STATUSES.items():
                operation["responses"].setdefault(
                    code, {"description": text, "content": {"application/json": {"schema": ref}}}
                )
    return result
