"""Screen a model's answer while it streams, with Parapet's REST stream sessions.

    PARAPET_URL=http://localhost:8080 PARAPET_SCREENING_KEY=psk_... python3 examples/python/stream.py [--leak]

The gateway opens a session with the conversation so far, sends the answer's text as the
model produces it, and shows the user only what Parapet has released (docs/streaming.md).
With --leak the simulated model writes an e-mail address: under the default policy the
stream is flagged, the user never sees the address, and the answer stops there.
"""

import sys

from parapet_rest import Parapet, ParapetError

parapet = Parapet()
conversation = [{"role": "user", "content": "How do I reach the shop manager?"}]

ANSWERS = {
    False: "The shop manager is in on weekdays from nine to five. Ask at the counter and she will come "
    "to the front, or leave a note with your order number and she will call you back the same day.",
    True: "The shop manager is in on weekdays from nine to five. You can write to her directly at "
    "jane.doe@example.com and she usually answers before noon.",
}


def model(leak):
    """A stand-in for the LLM: the answer in pieces of a few characters, as tokens arrive."""
    text = ANSWERS[leak]
    for i in range(0, len(text), 7):
        yield text[i : i + 7]


def show(text):
    sys.stdout.write(text)
    sys.stdout.flush()


try:
    opened = parapet.post("/v2/guard/streams", {"messages": conversation, "payload": True})
except ParapetError as err:
    print(f"error: {err}", file=sys.stderr)
    sys.exit(1)
stream = f"/v2/guard/streams/{opened['stream_id']}"

answer = ""
released = 0  # code points the user has seen; Python's len() counts code points too
show("user sees: ")
for token in model("--leak" in sys.argv):
    # offset: what was sent before this delta, so that a retried delta is not appended twice.
    verdict = parapet.post(f"{stream}/deltas", {"text": token, "offset": len(answer)})
    answer += token
    show(answer[released : verdict["released_offset"]])
    released = verdict["released_offset"]
    if verdict["stop"]:
        break  # flagged in enforce mode: the rest of the answer is never shown

final = parapet.post(f"{stream}/close", {})
if not final["stop"]:
    show(answer[released : final["released_offset"]])
    released = final["released_offset"]
print()
print(f"released: {released} of {len(answer)} characters")
print(f"flagged: {str(final['flagged']).lower()}")
for span in final["payload"]:
    print(f"withheld: {span['detector_type']} [{span['start']}, {span['end']})")
print(f"request: {final['metadata']['request_uuid']}")
