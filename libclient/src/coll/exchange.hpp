// The exchange of a blocking alltoall(v/w) or 2-member allgather(v): every member
// writes its pieces and reads the others' at once, whichever can go on. A member pumps
// its streamed pieces into its ring while there is room and drains every chunk the
// others have written for it, in any order, and waits only when neither can move. So a
// member's streams may exceed its ring: the writer of a full ring waits for a reader
// that, by then, has that chunk available (no cycle of waits), where pumping
// everything first, then reading member by member, would need every stream to fit the
// ring and would read the members in a fixed order (docs/collectives.md "Staged,
// streamed or exposed").
#pragma once

#include "coll/engine.hpp"

namespace shmpi::client::coll {

// After contribute_pieces() and post(): pumps our streamed pieces of `send` (nullptr:
// already pumped, e.g. in place) and receives every other member's piece for us into
// recv[r]. False if aborted or a copy failed (k.error, k.why say why).
bool exchange(Call& k, const Buf* send, const Buf* recv);
// The same for contributions every member reads whole (allgather; move.cpp takes it
// for two members): after stream_whole() or contribute() and post(), pumps `mine` if
// we stream it (to every other member: a chunk is overwritten once all of them have
// read it) and receives every other member's contribution into recv[r].
bool exchange_whole(Call& k, const Buf* mine, const Buf* recv);

}  // namespace shmpi::client::coll
