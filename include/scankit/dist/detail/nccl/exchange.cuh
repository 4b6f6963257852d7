// The NCCL backend's exchanges: NCCL calls grouped over the process's local ranks, the call
// records (all-gathered on the device, read on the host after a bounded wait), and moving a
// distributed array between layouts with grouped ncclSend/ncclRecv.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <vector>

#include "scankit/dist/detail/plan.hpp"
#include "scankit/dist/detail/signature.hpp"
#include "scankit/dist/nccl_communicator.hpp"
#include "scankit/error.hpp"

namespace scankit::dist::detail::nccl {

/// Scratch slots of nccl_local_rank::scratch.
enum scratch_slot : int {
  record_slot = 0,
  records_slot = 1,
  slot_a, slot_b, slot_c, slot_d, slot_e, slot_f, slot_g, slot_h, slot_i, slot_j
};

/// Calls f(local rank, index) for every local rank with its device current.
template <class F>
void for_each_local(nccl_communicator& c, F&& f) {
  for (int i = 0; i < c.local_count(); ++i) {
    device_guard g(c.local(i).device);
    f(c.local(i), i);
  }
}

/// NCCL calls of every local rank in one group (one process driving several GPUs must issue
/// them together, or the first blocks waiting for the others), then waits until they are
/// enqueued.
template <class F>
void grouped(nccl_communicator& c, const char* what, const char* operation, F&& f) {
  check_nccl(ncclGroupStart(), nullptr, "ncclGroupStart", operation);
  try {
    for_each_local(c, f);
  } catch (...) {
    ncclGroupEnd();
    throw;
  }
  check_nccl(ncclGroupEnd(), nullptr, "ncclGroupEnd", operation);
  c.settle(what, operation);
}

inline void check_shard_count(const nccl_communicator& c, std::size_t count, const char* what, const char* operation) {
  if (static_cast<int>(count) != c.local_count())
    throw invalid_argument(std::string(operation) + ": " + std::to_string(count) + " " + what + " for " +
                           std::to_string(c.local_count()) + " local ranks");
}

/// The checks every operation on shards starts with: a usable communicator, one input and one
/// output shard per local rank.
inline void check_call(nccl_communicator& c, std::size_t inputs, std::size_t outputs, const char* operation) {
  c.check_usable(operation);
  check_shard_count(c, inputs, "input shards", operation);
  check_shard_count(c, outputs, "output shards", operation);
}

/// Copies the host part of a local rank's call record to the device, where the rank's kernels
/// may then fill the payload; returns the device record.
inline call_record* stage_record(nccl_local_rank& l, const call_record& host_part, const char* operation) {
  call_record* staged = l.pinned[0].get<call_record>(1, operation);
  *staged = host_part;
  auto* d = l.buffer<call_record>(record_slot, 1, operation);
  check_cuda(cudaMemcpyAsync(d, staged, sizeof(call_record), cudaMemcpyHostToDevice, l.stream), "cudaMemcpyAsync",
             operation);
  return d;
}

/// The payload of a device record (the address only; nothing is read).
template <class T>
T* payload_of(call_record* d) {
  return reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(d) + offsetof(call_record, payload));
}

/// Marks a staged record failed: the rank's work after staging it threw.
inline void mark_failed(nccl_local_rank& l, call_record* d) {
  static const std::uint32_t one = 1;
  cudaMemcpyAsync(reinterpret_cast<unsigned char*>(d) + offsetof(call_record, failed), &one, sizeof(one),
                  cudaMemcpyHostToDevice, l.stream);
}

/// The i-th local rank's shard.
template <class S>
S at(std::span<const S> shards, int i) {
  return shards[static_cast<std::size_t>(i)];
}

/// Checks one local rank's input and output shards of a call whose output has as many items
/// as its input at most (scan, compaction).
inline void check_in_out(const void* in, std::int64_t n, const void* out, std::int64_t out_size, const char* operation) {
  scankit::detail::check_size(n, operation);
  scankit::detail::check_pointer(in, n, "input", operation);
  scankit::detail::check_pointer(out, n, "output", operation);
  if (out_size < n) throw invalid_argument(std::string(operation) + ": an output shard is shorter than its input");
}

/// Phase 1 of a distributed call, for each local rank i: check(i) validates its arguments; its
/// call record is staged with the payload initial(i), marked failed where the check threw; then
/// work(l, i, record) enqueues the local work, and an exception from it marks the record failed
/// too. Failures travel in the records, so every rank learns of them in the exchange instead of
/// waiting in it. Returns each local rank's failure, for gather_records.
template <class Check, class Initial, class Work>
std::vector<std::exception_ptr> local_phase(nccl_communicator& c, std::uint64_t sig, Check&& check, Initial&& initial,
                                            Work&& work, const char* operation) {
  std::vector<std::exception_ptr> failed(static_cast<std::size_t>(c.local_count()));
  for_each_local(c, [&](nccl_local_rank& l, int i) {
    auto& f = failed[static_cast<std::size_t>(i)];
    f = capture([&] { check(i); });
    call_record* rec = stage_record(l, make_record(sig, initial(i), f != nullptr), operation);
    if (f) return;
    f = capture([&] { work(l, i, rec); });
    if (f) mark_failed(l, rec);
  });
  return failed;
}

/// The payloads of the gathered records, in rank order.
template <class P>
std::vector<P> payloads(const std::vector<call_record>& records) {
  std::vector<P> all;
  all.reserve(records.size());
  for (const auto& r : records) all.push_back(record_payload<P>(r));
  return all;
}

/// All-gathers the staged records of every rank, waits for them (bounded) and checks them
/// (check_records: mismatched calls, failed ranks). `failed` holds each local rank's failure.
inline std::vector<call_record> gather_records(nccl_communicator& c, std::uint64_t sig,
                                               const std::vector<std::exception_ptr>& failed, const char* operation) {
  const int p = c.size();
  grouped(c, "ncclAllGather of the call records", operation, [&](nccl_local_rank& l, int) {
    auto* all = l.buffer<call_record>(records_slot, p, operation);
    check_nccl(ncclAllGather(l.buffer<call_record>(record_slot, 1, operation), all, sizeof(call_record), ncclUint8,
                             l.comm, l.stream),
               l.comm, "ncclAllGather", operation);
  });
  for_each_local(c, [&](nccl_local_rank& l, int) {
    check_cuda(cudaMemcpyAsync(l.pinned[1].get<call_record>(p, operation),
                               l.buffer<call_record>(records_slot, p, operation), sizeof(call_record) * p,
                               cudaMemcpyDeviceToHost, l.stream),
               "cudaMemcpyAsync", operation);
  });
  c.synchronize(operation);
  const call_record* h = c.local(0).pinned[1].get<call_record>(p, operation);
  std::vector<call_record> all(h, h + p);
  std::exception_ptr mine;
  for (const auto& f : failed)
    if (f && !mine) mine = f;
  check_records(all.data(), p, sig, c.local(0).rank, mine, operation);
  return all;
}

/// Phase timing: notes the bytes each local rank sends to other ranks in an all-to-all whose
/// piece sizes are matrix[from * p + to] items of `item_bytes` (nothing unless recording).
inline void note_sent_pieces(nccl_communicator& c, const std::vector<std::int64_t>& matrix, std::size_t item_bytes) {
  if (!c.recording_phases()) return;
  const int p = c.size();
  for (int i = 0; i < c.local_count(); ++i) {
    const int me = c.local(i).rank;
    std::int64_t items = 0;
    for (int q = 0; q < p; ++q)
      if (q != me) items += matrix[static_cast<std::size_t>(me * p + q)];
    c.note_sent_bytes(i, items * static_cast<std::int64_t>(item_bytes));
  }
}

/// Sends and receives every local rank's pieces: plans[i].send[q] of in[i] to rank q and
/// plans[i].recv[q] into out[i] from rank q (offsets and counts in items of `item_bytes`),
/// grouped ncclSend/ncclRecv as ncclUint8, except the piece a rank keeps, which moves by a
/// device-to-device copy first (NCCL's send to self runs at about half the copy's bandwidth).
/// in[i], out[i] and plans[i] belong to local rank i; no range received overlaps a range sent.
/// streams[i]: local rank i's stream for the call (empty: the ranks' own streams).
inline void exchange_pieces(nccl_communicator& c, std::span<const void* const> in, std::span<void* const> out,
                            std::size_t item_bytes, std::span<const transfer_plan> plans, const char* what,
                            const char* operation, std::span<const cudaStream_t> streams = {}) {
  const auto stream_of = [&](nccl_local_rank& l, int i) { return streams.empty() ? l.stream : streams[static_cast<std::size_t>(i)]; };
  const int p = c.size();
  auto src = [&](int i, const piece& s) {
    return static_cast<const unsigned char*>(in[static_cast<std::size_t>(i)]) + s.offset * item_bytes;
  };
  auto dst = [&](int i, const piece& r) {
    return static_cast<unsigned char*>(out[static_cast<std::size_t>(i)]) + r.offset * item_bytes;
  };
  for_each_local(c, [&](nccl_local_rank& l, int i) {
    const auto& plan = plans[static_cast<std::size_t>(i)];
    const piece& s = plan.send[static_cast<std::size_t>(l.rank)];
    const piece& r = plan.recv[static_cast<std::size_t>(l.rank)];
    if (s.count > 0)
      check_cuda(cudaMemcpyAsync(dst(i, r), src(i, s), static_cast<std::size_t>(s.count) * item_bytes,
                                 cudaMemcpyDeviceToDevice, stream_of(l, i)),
                 "cudaMemcpyAsync", operation);
  });
  grouped(c, what, operation, [&](nccl_local_rank& l, int i) {
    const auto& plan = plans[static_cast<std::size_t>(i)];
    for (int q = 0; q < p; ++q) {
      if (q == l.rank) continue;
      const piece& s = plan.send[static_cast<std::size_t>(q)];
      const piece& r = plan.recv[static_cast<std::size_t>(q)];
      if (s.count > 0)
        check_nccl(ncclSend(src(i, s), static_cast<std::size_t>(s.count) * item_bytes, ncclUint8, q, l.comm, stream_of(l, i)),
                   l.comm, "ncclSend", operation);
      if (r.count > 0)
        check_nccl(ncclRecv(dst(i, r), static_cast<std::size_t>(r.count) * item_bytes, ncclUint8, q, l.comm, stream_of(l, i)),
                   l.comm, "ncclRecv", operation);
    }
  });
}

/// Moves each local rank's items from layout `from` to layout `to` (items per rank, global
/// order kept): exchange_pieces of the overlapping pieces (plan_transfer). in[i] and out[i]
/// belong to local rank i; out must not overlap in.
inline void move_layout(nccl_communicator& c, std::span<const void* const> in, std::span<void* const> out,
                        std::size_t item_bytes, const std::vector<std::int64_t>& from, const std::vector<std::int64_t>& to,
                        const char* operation) {
  std::vector<transfer_plan> plans;
  for (int i = 0; i < c.local_count(); ++i) plans.push_back(plan_transfer(from, to, c.local(i).rank));
  exchange_pieces(c, in, out, item_bytes, plans, "ncclSend/ncclRecv", operation);
}

}  // namespace scankit::dist::detail::nccl
