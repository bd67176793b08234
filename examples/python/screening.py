"""Screen a conversation with POST /v2/guard and print what Parapet found.

    PARAPET_URL=http://localhost:8080 PARAPET_SCREENING_KEY=psk_... python3 examples/python/screening.py

Spans are [start, end) in code points of the message's content, which is what Python's
str indexing counts, so `content[start:end]` is the matched text (in JavaScript it is not).
"""

import sys

from parapet_rest import Parapet, ParapetError

parapet = Parapet()

messages = [
    {"role": "system", "content": "You are the support assistant of a book shop."},
    {"role": "user", "content": "Where is my order? You can reach me at jane.doe@example.com"},
]

try:
    result = parapet.post("/v2/guard", {"messages": messages, "breakdown": True, "payload": True})
except ParapetError as err:
    print(f"error: {err}", file=sys.stderr)
    sys.exit(1)

print(f"flagged: {str(result['flagged']).lower()}")
for item in result["breakdown"]:
    if item["detected"]:
        print(f"detected: {item['detector_type']} (message {item['message_id']})")
for span in result["payload"]:
    content = messages[span["message_id"]]["content"]
    print(f"span: {span['detector_type']} [{span['start']}, {span['end']}) {content[span['start']:span['end']]!r}")
print(f"request: {result['metadata']['request_uuid']}")

# A request Parapet refuses (a message without a role): the Error object names the problem.
try:
    parapet.post("/v2/guard", {"messages": [{"content": "Hello"}]})
except ParapetError as err:
    print(f"refused: {err}")
