// `mpirun -n R bifscope-cli run STUDY.json --out FILE`: one study spread over R processes (no MPI
// types here, so that cli_run.cpp needs no MPI headers).
//
// Rank 0 coordinates: it hands out blocks of consecutive systems on request (block_ledger.h),
// computes blocks itself on a worker thread, receives the finished blocks and passes them to its
// sink in system order, so the output equals a one-process run's. Ranks >= 1 load the same study
// file (the paths must resolve on every node), run what they are handed with their own backend and
// send each block back (engine/jobs/result_bytes.h).
//
// A rank that dies: Open MPI 4.1 (mpirun) then ends every rank with SIGTERM within about a second and
// names the dead rank itself; rank 0 catches the SIGTERM, drops its partial output and says so. A
// rank that stops answering (a hung node) loses its block after block_timeout: the block goes to
// another rank; a rank still silent at the end is named and the job aborted once the output is
// written (MPI_Finalize would wait for it forever).
#pragma once

#include "engine/jobs/result_block.h"
#include "engine/study/backend.h"
#include "engine/study/resolved_study.h"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace bif::cli::mpi {

// Whether this process was started by mpirun (or srun) with more than one process.
bool launched_as_several_processes();

struct DistributedOptions {
    std::optional<study::BackendChoice> backend;
    unsigned threads = 0;
    std::size_t block_systems = 0; // 0: about 16 blocks per rank, at most 65536 systems each
    std::chrono::milliseconds block_timeout{std::chrono::minutes(10)};
    study::ProgressSink on_progress; // rank 0
};

struct DistributedOutcome {
    bool is_coordinator = false;
    bool succeeded = false;
    bool interrupted = false;
    std::string failure;               // when neither succeeded nor interrupted
    study::RunInfo info;               // coordinator: the blocks' run information merged
    std::vector<std::string> messages; // coordinator: what the user should know (rank count, re-issues)
    // The run cannot end cleanly (an unresponsive rank): call abort_all() once the output is done.
    bool must_abort = false;
};

// Starts MPI (MPI_Init_thread) and ends it. One per process.
class Session {
  public:
    Session();
    ~Session(); // MPI_Finalize, unless abort_all() was called
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
    int rank() const { return rank_; }
    int size() const { return size_; }
    // This process among those of its node (MPI_COMM_TYPE_SHARED): which GPUs it takes.
    int node_rank() const { return node_rank_; }
    int node_size() const { return node_size_; }
    // The highest of every rank's status (a collective call), and in `rank` the rank that had it.
    int highest_status(int status, int& rank) const;
    // Ends every rank of the job (MPI_Abort) with this status; does not return.
    [[noreturn]] void abort_all(int status);

  private:
    int rank_ = 0, size_ = 1;
    int node_rank_ = 0, node_size_ = 1;
};

using OrderedBlockSink = std::function<void(std::shared_ptr<const jobs::ResultBlock>)>;

// Rank 0: runs the study over every rank, handing each finished block to `sink` in system order.
// `stop_requested` (Ctrl-C, SIGTERM), polled every few milliseconds, ends the run early. Never throws
// for a rank's failure or a failing sink: that is in the outcome.
DistributedOutcome coordinate(Session& session, std::shared_ptr<const study::ResolvedStudy> study,
                              const DistributedOptions& options, const OrderedBlockSink& sink,
                              const std::function<bool()>& stop_requested);

// Ranks >= 1: runs what rank 0 hands out until told to stop.
DistributedOutcome serve(Session& session, std::shared_ptr<const study::ResolvedStudy> study,
                         const DistributedOptions& options);

} // namespace bif::cli::mpi
