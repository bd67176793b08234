"""A few lines of plain `requests` around Parapet's REST paths, shared by the examples here.

Every Parapet failure answers the same JSON Error object (docs/api.md#error-object):
`{"status": "error", "error": "<identifier>", "message": ..., "code": <http status>,
"request_id": ...}`. `ParapetError` carries it, so a caller can branch on `error`
(`validation_failed`, `rate_limited`, ...) rather than on the message text.
"""

import os

import requests


class ParapetError(Exception):
    """A non-200 answer from Parapet, with its Error object's fields."""

    def __init__(self, status, body, retry_after=None):
        body = body if isinstance(body, dict) else {}
        self.code = body.get("code", status)
        self.error = body.get("error", "unknown")
        self.message = body.get("message", "")
        self.request_id = body.get("request_id")
        # On 429 and 503: seconds to wait before retrying.
        self.retry_after = retry_after
        super().__init__(f"{self.error} ({self.code}) {self.message} [request {self.request_id}]")


class Parapet:
    """POSTs JSON to Parapet with a bearer key; returns the answer's JSON or raises ParapetError."""

    def __init__(self, base_url=None, api_key=None, timeout=10):
        self.base_url = (base_url or os.environ.get("PARAPET_URL", "http://localhost:8080")).rstrip("/")
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {api_key or os.environ['PARAPET_SCREENING_KEY']}"
        self.timeout = timeout

    def post(self, path, body):
        res = self.session.post(self.base_url + path, json=body, timeout=self.timeout)
        if res.status_code != 200:
            try:
                error = res.json()
            except ValueError:
                error = None
            retry_after = res.headers.get("Retry-After")
            raise ParapetError(res.status_code, error, int(retry_after) if retry_after else None)
        return res.json()
