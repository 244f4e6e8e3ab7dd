// The output of `bifscope-cli run --out FILE`: a streamed job's blocks written as they finish, so
// that the run holds only the blocks in flight however many systems it has (see JobOptions::
// keep_result). FILE is written by engine/study/output_file.h's rules: a regular file through its
// partial file, renamed into place at the end; a device, FIFO or socket in place; "-" standard output.
//
// CSV: the rows go to a side file as blocks come (beside FILE, or in $TMPDIR for a stream); the
// comment block, whose counts are known only at the end, is written first, the rows copied after
// it. HDF5 (FILE ends in .h5 or .hdf5, a regular file only): hyperslabs of the datasets
// (engine/study/result_hdf5.h), attributes at the end.
// The bytes and values equal those of the assembled result written in one go.
#pragma once

#include "engine/jobs/result_block.h"
#include "engine/study/output_file.h"
#include "engine/study/result_hdf5.h"
#include "engine/study/result_summary.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace bif::cli {

// Whether `path` asks for HDF5 (by its extension).
bool is_hdf5_path(const std::string& path);

class StreamedOutput {
  public:
    // Throws std::runtime_error when the partial files cannot be created.
    StreamedOutput(std::string path, std::size_t system_count, study::AnalysisKind analysis,
                   std::string study_json, study::Hdf5Options hdf5 = {});
    ~StreamedOutput(); // abandons the output unless finish() succeeded
    StreamedOutput(const StreamedOutput&) = delete;
    StreamedOutput& operator=(const StreamedOutput&) = delete;

    // The job's block sink (its worker thread): queues the block for the writer thread, waiting
    // while two blocks wait already. Blocks must come in system order. Rethrows a failed write.
    void push(std::shared_ptr<const jobs::ResultBlock> block);

    // Once the job succeeded: writes what is left and renames the file into place. Throws
    // std::runtime_error with the reason on a failed write (ENOSPC, EIO, EPIPE).
    void finish(const study::RunInfo& info);

    // The status counts of every system written (valid after finish()).
    const study::ResultSummary& summary() const { return summary_; }

  private:
    void write_loop();
    void write_block(const study::Result& block, std::size_t first_system);
    void stop_writer();
    void remove_partial_files();

    std::string path_, partial_, rows_path_, study_json_;
    bool hdf5_ = false;
    study::ResultSummary summary_;
    std::unique_ptr<study::Hdf5ResultWriter> hdf5_writer_;
    std::unique_ptr<study::OutputFile> csv_file_;
    std::ofstream rows_;
    std::string csv_header_;
    std::size_t next_system_ = 0;

    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::shared_ptr<const jobs::ResultBlock>> queue_;
    bool closing_ = false;
    std::exception_ptr failure_;
    bool finished_ = false;
    std::thread writer_;
};

} // namespace bif::cli
