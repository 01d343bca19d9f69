"""What every request and socket meets before a view: security headers, the input policy's
HTTP side, the websocket origin check, and the ids a request is about for the logs."""
