// Chain allreduce: a large allreduce when the job has more ranks than CPUs. The last
// member copies its input into its ring (the accumulator); then, chunk by chunk, each
// member from n-2 down to 0 folds its own input into the accumulator where it lies
// (acc = x(r) o acc: MPI-4.1 6.9.5 rank order, the same combination order and bits as
// every other reduction here), as soon as the member after it is done with that chunk;
// every member copies each chunk once member 0 has folded it. Every input is read once
// from its owner's private memory and nothing is copied into the segment but the last
// member's input, where the split allreduce copies every input and result block
// through rings: on 2 cores shared by 8 ranks, where copies cost CPU time the other
// ranks need, that is less work in all (docs/collectives.md "Chain allreduce").
//
// Protocol (the owner w = n-1, the chunks of its stream from `first`, stream.hpp):
//   w: stream_whole + kDescChain, post, writes chunk c (streamed = c + 1);
//   r < w: waits for w's post; posts (status 0, bytes = span); acquires chunk c from
//     r+1 (r+1 == w: streamed; else ack(r+1, w)) >= c + 1, folds its input into it,
//     releases ack(r, w) = c + 1;
//   all: acquire ack(0, w) >= c + 1, copy chunk c out. w's finish() waits for every
//     member's `done` before its ring is reused (kDescExposed, as any stream).
// A member sees every post before it folds: an invalid or disagreeing one fails the
// call on every member alike, and nobody waits for anybody's chunks.
#pragma once

#include <string>

#include "coll/collectives.hpp"
#include "coll/image.hpp"

namespace shmpi::client::coll {

// Below this the chain's n stages run one after the other with few chunks to pipeline,
// and the split allreduce is faster (8 ranks on 2 cores: 64 KiB 42 against 29 us, 128
// KiB 52 against 44, 256 KiB about even, 512 KiB 107-128 against 150; docs).
inline constexpr std::uint64_t kChainMin = std::uint64_t{256} << 10;

// The same answer on every member (job shape, count and type only): an allreduce of a
// type without holes (`direct`) whose image is at least kChainMin, fits one ring and
// whose extent divides a ring chunk, when the job has more ranks than CPUs.
bool chain_fits(const Geometry& g, MPI_Count count, int n, bool direct);

// Runs a chain allreduce in call k (after begin() and reserve()), in_img / recv_img the
// input and result images. kNotChained if the owner's ring was busy (then this member
// posted nothing and the caller goes on with another algorithm, as the owner does),
// else the call's outcome.
inline constexpr int kNotChained = -1;
int chain_allreduce(Call& k, const Reducer& op, const Geometry& g, const std::byte* in_img, std::byte* recv_img,
                    MPI_Count count, std::string& why);

}  // namespace shmpi::client::coll
