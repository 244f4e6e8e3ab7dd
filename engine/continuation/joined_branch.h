// A branch continued both ways from its start, as one branch in arclength order: the down part
// reversed (its arclength negative), then the up part without its start. For any branch type with
// points (each with an arclength), stop and message: equilibria, curves, orbits.
#pragma once

#include <algorithm>
#include <utility>

namespace bif::cont {

template <class Branch>
Branch joined(Branch down, Branch up) {
    Branch out;
    std::reverse(down.points.begin(), down.points.end());
    for (auto& p : down.points)
        p.arclength = -p.arclength;
    out.points = std::move(down.points);
    if (!up.points.empty()) out.points.insert(out.points.end(), up.points.begin() + 1, up.points.end());
    out.stop = up.stop;
    out.message = "down: " + down.message + "; up: " + up.message;
    return out;
}

} // namespace bif::cont
