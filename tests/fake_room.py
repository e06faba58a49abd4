#!/usr/bin/env python3
"""fake_room.py SOCK SCRIPT - a room that says what a test tells it (tests/class.sh):
listens at SOCK, takes one client, reads its HELLO, sends SCRIPT's lines (a
file, one protocol line each), then keeps the connection open (reading) until
the client leaves or 60 s pass.  For the join client's side of the protocol:
what a room that lies sends."""
import os
import socket
import sys
import time

path, script = sys.argv[1], sys.argv[2]
try:
    os.unlink(path)
except FileNotFoundError:
    pass
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(path)
srv.listen(1)
conn, _ = srv.accept()
conn.settimeout(60)
got = b""
while b"\n" not in got:
    part = conn.recv(4096)
    if not part:
        sys.exit(0)
    got += part
with open(script, "rb") as f:
    conn.sendall(f.read())
end = time.time() + 60
try:
    while time.time() < end:
        if not conn.recv(4096):
            break
except OSError:
    pass
