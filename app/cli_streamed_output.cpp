#include "cli_streamed_output.h"

#include "cli_paths.h"
#include "engine/study/result_csv.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <unistd.h>
#include <vector>

namespace bif::cli {

namespace {

constexpr std::size_t blocks_waiting_at_most = 2;

// A fresh file in $TMPDIR (or /tmp) for the rows of an output that is a stream.
std::string temporary_rows_path() {
    const char* folder = std::getenv("TMPDIR");
    std::string path = std::string(folder && *folder ? folder : "/tmp") + "/bifscope-rows-XXXXXX";
    const int fd = ::mkstemp(path.data());
    if (fd < 0)
        throw std::runtime_error("cannot create a temporary file in " + path.substr(0, path.rfind('/')));
    ::close(fd);
    return path;
}

} // namespace

bool is_hdf5_path(const std::string& path) {
    const std::string extension = std::filesystem::path(path).extension().string();
    return extension == ".h5" || extension == ".hdf5";
}

StreamedOutput::StreamedOutput(std::string path, std::size_t system_count, study::AnalysisKind analysis,
                               std::string study_json, study::Hdf5Options hdf5)
    : path_(std::move(path)), partial_(partial_path(path_)), study_json_(std::move(study_json)),
      hdf5_(is_hdf5_path(path_)) {
    summary_.analysis = analysis;
    summary_.system_count = system_count;
    if (hdf5_) {
        hdf5_writer_ = std::make_unique<study::Hdf5ResultWriter>(partial_, system_count, hdf5);
    } else {
        csv_file_ = std::make_unique<study::OutputFile>(path_);
        rows_path_ =
            csv_file_->kind() == study::OutputKind::File ? partial_ + "-rows" : temporary_rows_path();
        rows_.open(rows_path_, std::ios::binary | std::ios::trunc);
        if (!rows_) throw std::runtime_error("cannot create " + rows_path_);
    }
    writer_ = std::thread([this] { write_loop(); });
}

StreamedOutput::~StreamedOutput() {
    stop_writer();
    if (!finished_) remove_partial_files();
}

void StreamedOutput::push(std::shared_ptr<const jobs::ResultBlock> block) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return queue_.size() < blocks_waiting_at_most || failure_; });
    if (failure_) std::rethrow_exception(failure_);
    queue_.push_back(std::move(block));
    changed_.notify_all();
}

void StreamedOutput::write_loop() {
    for (;;) {
        std::shared_ptr<const jobs::ResultBlock> block;
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [&] { return !queue_.empty() || closing_; });
            if (queue_.empty()) return;
            block = queue_.front();
        }
        try {
            // A cancelled block keeps its finished systems only, not consecutive ones: the run is
            // over and its output abandoned, so it is not written.
            const auto& systems = block->systems;
            if (!systems.empty() && systems.back() - systems.front() + 1 == systems.size())
                write_block(*block->result, systems.front());
        } catch (...) {
            std::lock_guard lock(mutex_);
            failure_ = std::current_exception();
        }
        std::lock_guard lock(mutex_);
        queue_.pop_front();
        changed_.notify_all();
    }
}

void StreamedOutput::write_block(const study::Result& block, std::size_t first_system) {
    if (first_system != next_system_) throw std::logic_error("streamed output: blocks out of system order");
    next_system_ += block.system_count;
    summary_.add_statuses(block.status);
    if (hdf5_) return hdf5_writer_->write_block(block, first_system);
    if (csv_header_.empty()) {
        std::ostringstream header;
        study::write_csv_header(header, block);
        csv_header_ = header.str();
    }
    study::write_csv_rows(rows_, block);
    if (!rows_) throw std::runtime_error("cannot write " + rows_path_);
}

void StreamedOutput::stop_writer() {
    {
        std::lock_guard lock(mutex_);
        closing_ = true;
    }
    changed_.notify_all();
    if (writer_.joinable()) writer_.join();
}

void StreamedOutput::finish(const study::RunInfo& info) {
    stop_writer();
    if (failure_) std::rethrow_exception(failure_);
    summary_.info = info;
    if (hdf5_) {
        hdf5_writer_->finish(summary_, study_json_);
        hdf5_writer_.reset();
    } else {
        if (!rows_.flush()) throw std::runtime_error("cannot write " + rows_path_);
        rows_.close();
        std::ostream& out = csv_file_->stream();
        study::write_csv_comment_block(out, summary_, study_json_);
        out << csv_header_;
        std::ifstream rows(rows_path_, std::ios::binary);
        std::vector<char> buffer(std::size_t{1} << 22);
        while (out &&
               (rows.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || rows.gcount() > 0))
            out.write(buffer.data(), rows.gcount());
        std::remove(rows_path_.c_str());
        if (const std::string why = csv_file_->commit(); !why.empty()) throw std::runtime_error(why);
        finished_ = true;
        return;
    }
    std::error_code ec;
    std::filesystem::rename(partial_, path_, ec);
    if (ec) throw std::runtime_error("cannot rename " + partial_ + " to " + path_ + ": " + ec.message());
    finished_ = true;
}

void StreamedOutput::remove_partial_files() {
    const bool regular = hdf5_ || csv_file_->kind() == study::OutputKind::File;
    hdf5_writer_.reset();
    csv_file_.reset(); // drops its partial file
    rows_.close();
    if (!rows_path_.empty()) std::remove(rows_path_.c_str());
    if (regular) std::remove(partial_.c_str());
}

} // namespace bif::cli
