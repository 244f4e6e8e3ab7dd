// The coordinator's book of a distributed run (app/mpi/block_ledger.h), without MPI: blocks handed
// out lowest first within the window, a rank holding two at once (a GPU rank runs one while the
// next one's inputs go up), timeouts that hand a block out again, and the written order.
#include "mpi/block_ledger.h"

#include <catch2/catch.hpp>
#include <set>

using bif::cli::mpi::BlockLedger;

namespace {

std::shared_ptr<const bif::jobs::ResultBlock> finished() {
    return std::make_shared<bif::jobs::ResultBlock>();
}

} // namespace

TEST_CASE("blocks go out lowest first, within the window, and are written in order", "[mpi]") {
    BlockLedger ledger(10, 3, 2); // blocks of 3, 3, 3, 1
    const auto now = BlockLedger::Clock::now();
    REQUIRE(ledger.block_count() == 4);
    CHECK(ledger.range(3).first == 9);
    CHECK(ledger.range(3).count == 1);
    CHECK(ledger.hand_out(1, now) == 0u);
    CHECK(ledger.hand_out(2, now) == 1u);
    CHECK_FALSE(ledger.hand_out(1, now).has_value()); // block 2 is beyond the window of 2 from block 0
    CHECK(ledger.receive(2, 1, finished()));
    CHECK(ledger.take_in_order().empty()); // block 0 is not back
    CHECK(ledger.receive(1, 0, finished()));
    CHECK(ledger.take_in_order().size() == 2);
    CHECK(ledger.hand_out(1, now) == 2u);
    CHECK(ledger.hand_out(2, now) == 3u);
    CHECK_FALSE(ledger.hand_out(1, now).has_value());
    CHECK(ledger.receive(2, 3, finished()));
    CHECK(ledger.receive(1, 2, finished()));
    CHECK(ledger.take_in_order().size() == 2);
    CHECK(ledger.all_written());
}

TEST_CASE("a rank may hold two blocks; each is its own", "[mpi]") {
    BlockLedger ledger(12, 3, 8);
    const auto start = BlockLedger::Clock::now();
    CHECK(ledger.hand_out(1, start) == 0u);
    CHECK(ledger.hand_out(1, start) == 1u);
    CHECK(ledger.hand_out(2, start) == 2u);
    CHECK(ledger.holds(1));
    // its second block comes back first: the first is still held, and still times out
    CHECK(ledger.receive(1, 1, finished()));
    CHECK(ledger.holds(1));
    CHECK(ledger.receive(1, 0, finished()));
    CHECK_FALSE(ledger.holds(1));
    // two blocks held past the timeout: the rank is named once, and both go out again
    CHECK(ledger.hand_out(1, start) == 3u);
    const auto late = start + std::chrono::seconds(20);
    const std::vector<int> expired = ledger.expire(late, std::chrono::seconds(10));
    CHECK(expired == std::vector<int>{1, 2});
    CHECK(ledger.unresponsive().contains(1));
    const std::set<std::size_t> again = {ledger.hand_out(3, late).value_or(99),
                                         ledger.hand_out(3, late).value_or(99)};
    CHECK(again == std::set<std::size_t>{2, 3});
    // the late copy and the new one: whichever comes back first is kept
    CHECK(ledger.receive(2, 2, finished()));
    CHECK_FALSE(ledger.receive(3, 2, finished()));
    CHECK(ledger.receive(3, 3, finished()));
    CHECK(ledger.take_in_order().size() == 4);
    CHECK(ledger.all_written());
}
