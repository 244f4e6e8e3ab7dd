// Ranks >= 1 of a distributed run: one streamed job whose ranges come from rank 0.
#include "distributed_run.h"
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/jobs/result_bytes.h"
#include "mpi_channel.h"

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

namespace bif::cli::mpi {

namespace {

// Tests only: BIFSCOPE_MPI_TEST_FAULT=abort:R or hang:R makes rank R, once it sent its first block
// and got its second, call abort() or stop answering, as a crashed or hung node would.
void act_on_test_fault(int rank, std::size_t blocks_sent) {
    const char* fault = std::getenv("BIFSCOPE_MPI_TEST_FAULT");
    if (fault == nullptr || blocks_sent != 1) return;
    const std::string text = fault;
    const auto colon = text.find(':');
    if (colon == std::string::npos || std::atoi(text.c_str() + colon + 1) != rank) return;
    if (text.starts_with("abort")) std::abort();
    if (text.starts_with("hang"))
        for (;;)
            std::this_thread::sleep_for(std::chrono::hours(1));
}

} // namespace

DistributedOutcome serve(Session& session, std::shared_ptr<const study::ResolvedStudy> study,
                         const DistributedOptions& options) {
    jobs::JobOptions job_options;
    job_options.backend = options.backend;
    job_options.threads = options.threads;
    job_options.keep_result = false;
    // Requests rank 0 has not answered yet. A sent block is a request; the job asks for a range
    // with none unanswered only at its start (it takes one range at a time), and then says Ready.
    int unanswered = 0;
    std::size_t blocks_sent = 0;
    job_options.next_range = [&]() -> std::optional<jobs::SystemRange> {
        if (unanswered == 0) {
            send_bytes(0, Tag::Ready, nullptr, 0);
            ++unanswered;
        }
        std::uint64_t first = 0, count = 0;
        receive_assignment(first, count);
        --unanswered;
        if (count == 0) return std::nullopt;
        act_on_test_fault(session.rank(), blocks_sent);
        return jobs::SystemRange{static_cast<std::size_t>(first), static_cast<std::size_t>(count)};
    };
    job_options.on_block = [&](std::shared_ptr<const jobs::ResultBlock> block) {
        const std::vector<std::byte> bytes = jobs::encode_block(*block);
        send_bytes(0, Tag::Block, bytes.data(), bytes.size());
        ++unanswered;
        ++blocks_sent;
    };
    auto job = jobs::submit(jobs::installed_backends(), std::move(study), job_options);
    job->wait();
    DistributedOutcome outcome;
    outcome.succeeded = job->state() == jobs::JobState::Succeeded;
    if (!outcome.succeeded) {
        outcome.failure = job->failure();
        // Rank 0 ends the run on this message; a failure to send it leaves mpirun to do so.
        try {
            send_bytes(0, Tag::Failed, outcome.failure.data(), outcome.failure.size());
        } catch (const std::exception&) {
        }
    }
    return outcome;
}

} // namespace bif::cli::mpi
