// What a job's tests collect of its blocks (JobOptions::on_block, called on the job's threads): every
// block in arrival order, and when the first came.
#pragma once

#include "engine/jobs/job.h"

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace bif::test {

struct Blocks {
    std::mutex mutex;
    std::vector<std::shared_ptr<const jobs::ResultBlock>> list;
    std::chrono::steady_clock::time_point first_at{};

    std::function<void(std::shared_ptr<const jobs::ResultBlock>)> sink() {
        return [this](std::shared_ptr<const jobs::ResultBlock> b) {
            std::lock_guard lock(mutex);
            if (list.empty()) first_at = std::chrono::steady_clock::now();
            list.push_back(std::move(b));
        };
    }
    std::size_t size() {
        std::lock_guard lock(mutex);
        return list.size();
    }
};

} // namespace bif::test
