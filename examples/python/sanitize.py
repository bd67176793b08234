"""Sanitize a conversation before the model sees it, then restore the model's answer.

    PARAPET_URL=http://localhost:8080 PARAPET_SCREENING_KEY=psk_... python3 examples/python/sanitize.py

Reversible sanitize needs PARAPET_VAULT_KEY on the service (docs/sanitize.md#encryption);
without it Parapet answers 403 feature_disabled. The model (simulated here) only ever sees
placeholders such as [EMAIL_1]; POST /v2/guard/restore puts the originals back.
"""

import re
import sys

from parapet_rest import Parapet, ParapetError

parapet = Parapet()

messages = [{"role": "user", "content": "Please send the invoice to jane.doe@example.com and copy bob.smith@example.org."}]

try:
    result = parapet.post("/v2/guard", {"messages": messages, "sanitize": {"mode": "reversible"}})
except ParapetError as err:
    print(f"error: {err}", file=sys.stderr)
    sys.exit(1)

to_model = result["sanitized_messages"][-1]["content"]
print(f"to the model: {to_model}")
print(f"replaced: {result['sanitized_spans']}, vault: {result['vault_id']} until {result['vault_expires_at']}")


def model(prompt):
    """A stand-in for the LLM: it answers with the placeholders it was given."""
    addresses = re.findall(r"\[EMAIL_\d+\]", prompt)
    return f"Done: the invoice went to {addresses[0]}, with a copy to {addresses[1]}."


answer = model(to_model)
print(f"from the model: {answer}")
restored = parapet.post("/v2/guard/restore", {"vault_id": result["vault_id"], "text": answer})
print(f"to the user: {restored['text']}")
print(f"restored: {restored['restored']}, unknown: {restored['unknown']}")
