#!/usr/bin/env python3
"""Hostile and odd clients of the broker socket, for tests/scripts/security.sh.

Speaks the wire format of common/shmpi_common/protocol.hpp (16-byte header: magic,
version, type, payload size, reserved; one SOCK_SEQPACKET datagram per message).
Stdlib only. Every command exits 0 when the broker behaved as required, else prints
why and exits 1.

  ping SOCK                   print the broker's pid (Pong)
  garbage SOCK CASE LOG       send one bad request; the reply must be an Error naming
                              it, and LOG a line naming this pid and the problem
  flood SOCK N LOG            N malformed messages: the broker must drop the peer, and
                              say so in LOG
  stall SOCK READY RELEASE    hold stalled connections (silent, half a message, a
                              flooder that never reads replies) until RELEASE exists
  burst SOCK N                N connects at once, then all close at once (twice: bare,
                              and each after sending garbage)
  hold SOCK N READY RELEASE   keep N idle connections open until RELEASE exists
  foreign SOCK                as root: become uid 65534 but keep capabilities
                              (SECBIT_NO_SETUID_FIXUP), so connect() reaches the socket
                              while SO_PEERCRED says 65534; nothing may be served
  connect-denied SOCK         (run as another uid) connect must fail with EACCES
  open-denied PATH...         (run as another uid) opening each read-only must fail with EACCES
"""
import ctypes
import errno
import os
import socket
import struct
import sys
import time

MAGIC = 0x53504D49
VERSION = 1
PING, PONG, CREATE_JOB, JOB_CREATED, JOIN, JOINED, FINALIZE, ABORT, RANK_EXITED, END_JOB, ACK, ERROR = range(1, 13)
MAX_MESSAGE = 512


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def header(mtype, payload_size, version=VERSION, magic=MAGIC):
    return struct.pack("<IHHII", magic, version, mtype, payload_size, 0)


def message(mtype, payload=b""):
    return header(mtype, len(payload)) + payload


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(path)
    s.settimeout(5)  # after connect: a timed Unix connect fails at once on a full backlog
    return s


def receive(s):
    """(type, payload) of the next message, or None on EOF."""
    data = s.recv(4096)
    if not data:
        return None
    if len(data) < 16:
        fail("reply of %d bytes" % len(data))
    magic, version, mtype, size, _ = struct.unpack("<IHHII", data[:16])
    if magic != MAGIC or version != VERSION or size != len(data) - 16:
        fail("malformed reply %r" % data[:32])
    return mtype, data[16:]


def error_text(reply):
    if reply is None:
        fail("the broker closed the connection instead of answering")
    mtype, payload = reply
    if mtype != ERROR:
        fail("expected an Error reply, got message type %d" % mtype)
    code, text = struct.unpack("<i200s", payload)
    return code, text.split(b"\0", 1)[0].decode()


def ping(path):
    s = connect(path)
    s.send(message(PING))
    reply = receive(s)
    if reply is None or reply[0] != PONG:
        fail("no Pong")
    pid, _ = struct.unpack("<iI", reply[1])
    s.close()
    return pid


# Each case: the datagram and a substring the Error reply (and the broker log) must carry.
CASES = {
    "random": (lambda: bytes([0xA5]) + os.urandom(63), "bad magic"),
    "short-header": (lambda: header(PING, 0)[:9], "truncated message: 9 bytes"),
    "oversized-datagram": (lambda: message(PING, os.urandom(64 * 1024)), "longer than the 512-byte limit"),
    "length-field": (lambda: header(JOIN, 0xFFFFFFF0) + bytes(16), "announces 4294967280 payload bytes"),
    "short-payload": (lambda: message(JOIN, bytes(8)), "payload of 8 bytes for message type 5, expected 16"),
    "version": (lambda: header(PING, 0, version=7), "protocol version 7"),
    "type": (lambda: header(999, 0), "unknown message type 999"),
    "reply-type": (lambda: message(PONG, bytes(8)), "reply, not a request"),
    "no-such-job": (lambda: message(JOIN, struct.pack("<QII", 987654321, 0, 0)), "no job 987654321"),
    "no-such-rank-exited": (lambda: message(RANK_EXITED, struct.pack("<QIi", 987654321, 3, 9)),
                            "rank_exited for a job or rank this runner does not own"),
    "no-such-end-job": (lambda: message(END_JOB, struct.pack("<Q", 987654321)),
                        "end_job for a job this runner does not own"),
    "finalize-unjoined": (lambda: message(FINALIZE), "finalize from a connection that has not joined"),
    "abort-unjoined": (lambda: message(ABORT, struct.pack("<iI", 3, 0)), "abort from a connection that has not joined"),
    "huge-job": (lambda: message(CREATE_JOB, struct.pack("<II", 0xFFFFFFFF, 1)), "job size 4294967295 out of range"),
}


def check_log(log, *words):
    """LOG has a line about this process (the broker names peers by SO_PEERCRED pid)."""
    mine = "pid %d" % os.getpid()
    with open(log, errors="replace") as f:
        for line in f:
            if mine in line and all(w in line for w in words):
                return line.rstrip()
    fail("no line in %s with %r and %r" % (log, mine, words))


def garbage(path, case, log):
    data, expect = CASES[case]
    s = connect(path)
    s.send(data())
    code, text = error_text(receive(s))
    if expect not in text:
        fail("%s: Error reply %r does not say %r" % (case, text, expect))
    # The connection stays usable after one bad message.
    s.send(message(PING))
    reply = receive(s)
    if reply is None or reply[0] != PONG:
        fail("%s: no Pong after the refusal" % case)
    s.close()
    print("%s: refused with code %d: %s" % (case, code, text))
    print("  log: " + check_log(log, expect))


def flood(path, n, log):
    s = connect(path)
    answered = 0
    for i in range(n):
        try:
            s.send(header(PING, 0, magic=0xDEADBEEF))
        except (BrokenPipeError, ConnectionResetError):
            break
    try:
        while True:
            reply = receive(s)
            if reply is None:
                break
            answered += 1
    except ConnectionResetError:
        pass
    except socket.timeout:
        fail("the broker kept a peer that sent %d malformed messages" % n)
    print("dropped after %d error replies" % answered)
    if answered >= n:
        fail("every one of %d malformed messages was answered; the peer was never dropped" % n)
    print("  log: " + check_log(log, "dropping", "malformed messages"))


def wait_for(path, seconds=90):
    for _ in range(seconds * 20):
        if os.path.exists(path):
            return
        time.sleep(0.05)
    fail("%s did not appear" % path)


def touch(path):
    open(path, "w").close()


def stall(path, ready, release):
    silent = connect(path)  # connects and says nothing
    half = connect(path)    # half of a CreateJob, then nothing
    half.send(message(CREATE_JOB, struct.pack("<II", 2, 1))[:12])
    deaf = connect(path)    # requests without ever reading the replies
    deaf.setblocking(False)
    sent = 0
    try:
        while sent < 100000:
            deaf.send(message(PING))
            sent += 1
    except BlockingIOError:
        pass
    print("stalled: a silent connection, half a message, %d unread pings" % sent, flush=True)
    touch(ready)
    wait_for(release)
    # The half message got its Error reply; the connections were never dropped for
    # being slow (nothing was served wrong either).
    half.settimeout(5)
    code, text = error_text(receive(half))
    if "truncated message: 12 bytes" not in text:
        fail("half a message: reply %r" % text)
    for s in (silent, half, deaf):
        s.close()


def burst(path, n):
    for garbage_first in (False, True):
        socks = []
        for _ in range(n):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            s.connect(path)  # blocking: waits while the backlog is full (a Unix connect cannot time out)
            if garbage_first:
                s.send(os.urandom(40))
            socks.append(s)
        for s in socks:
            s.close()
    print("%d + %d connections opened and closed at once" % (n, n))


def hold(path, n, ready, release):
    socks = []
    for _ in range(n):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        s.connect(path)  # completes from the listen backlog even if never accepted
        socks.append(s)
    touch(ready)
    wait_for(release)
    for s in socks:
        s.close()


def foreign(path):
    PR_SET_SECUREBITS = 28
    SECBIT_NO_SETUID_FIXUP = 1 << 2
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP, 0, 0, 0) != 0:
        fail("prctl(PR_SET_SECUREBITS): %s" % os.strerror(ctypes.get_errno()))
    os.setgroups([])
    os.setresgid(65534, 65534, 65534)
    os.setresuid(65534, 65534, 65534)
    if os.getuid() != 65534 or os.geteuid() != 65534:
        fail("still uid %d" % os.geteuid())
    # CAP_DAC_OVERRIDE survived: the 0700 directory and the 0600 socket no longer stop us.
    s = connect(path)
    print("connected as uid %d (pid %d)" % (os.geteuid(), os.getpid()), flush=True)
    try:
        s.send(message(CREATE_JOB, struct.pack("<II", 1, 0)))
        s.send(message(PING))
    except (BrokenPipeError, ConnectionResetError):
        print("closed by the broker before anything was served")
        return
    try:
        reply = receive(s)
    except ConnectionResetError:
        reply = None
    except socket.timeout:
        fail("the broker neither served nor closed a connection from uid 65534")
    if reply is not None:
        fail("the broker answered uid 65534 with message type %d" % reply[0])
    print("closed by the broker before anything was served")


def connect_denied(path):
    try:
        connect(path)
    except OSError as e:
        if e.errno != errno.EACCES:
            fail("connect as uid %d: %s, expected EACCES" % (os.getuid(), e))
        print("connect as uid %d: %s" % (os.getuid(), os.strerror(e.errno)))
        return
    fail("uid %d connected to %s" % (os.getuid(), path))


def open_denied(paths):
    for p in paths:
        try:
            fd = os.open(p, os.O_RDONLY)
        except OSError as e:
            if e.errno != errno.EACCES:
                fail("open %s as uid %d: %s, expected EACCES" % (p, os.getuid(), e))
            continue
        os.close(fd)
        fail("uid %d opened %s" % (os.getuid(), p))
    print("uid %d: %d file(s), each EACCES" % (os.getuid(), len(paths)))


def main(argv):
    if len(argv) < 3:
        fail(__doc__)
    cmd, path = argv[1], argv[2]
    if cmd == "ping":
        print(ping(path))
    elif cmd == "garbage":
        garbage(path, argv[3], argv[4])
    elif cmd == "flood":
        flood(path, int(argv[3]), argv[4])
    elif cmd == "stall":
        stall(path, argv[3], argv[4])
    elif cmd == "burst":
        burst(path, int(argv[3]))
    elif cmd == "hold":
        hold(path, int(argv[3]), argv[4], argv[5])
    elif cmd == "foreign":
        foreign(path)
    elif cmd == "connect-denied":
        connect_denied(path)
    elif cmd == "open-denied":
        open_denied(argv[2:])
    elif cmd == "cases":
        print(" ".join(CASES))
    else:
        fail("unknown command " + cmd)


if __name__ == "__main__":
    main(sys.argv)
