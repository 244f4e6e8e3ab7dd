#include "engine/analysis/phase_plane_contours.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace bif::analysis {

namespace {

constexpr std::uint32_t none = 0xffffffffu;

// Edge crossings are numbered: the horizontal edge from (i, j) to (i+1, j) is j (nx-1) + i; the
// vertical edge from (i, j) to (i, j+1) follows them at ny (nx-1) + j nx + i.
struct EdgeNumbering {
    int nx, ny;
    std::uint32_t horizontal(int i, int j) const { return std::uint32_t(j * (nx - 1) + i); }
    std::uint32_t vertical(int i, int j) const { return std::uint32_t(ny * (nx - 1) + j * nx + i); }
    std::size_t count() const {
        return std::size_t(ny) * std::size_t(nx - 1) + std::size_t(ny - 1) * std::size_t(nx);
    }
};

struct Segment {
    std::uint32_t a, b; // edge numbers of its two ends
};

// Where the edge from (xa, ya, va) to (xb, yb, vb) crosses zero; the signs of va and vb differ.
PlanePoint crossing(double xa, double ya, double va, double xb, double yb, double vb) {
    const double s = va / (va - vb);
    return {xa + s * (xb - xa), ya + s * (yb - ya)};
}

class Tracer {
  public:
    explicit Tracer(const SampledGrid& g) : g_(g), edges_{g.nx, g.ny}, point_(edges_.count()) {}

    std::vector<Polyline> trace() {
        for (int j = 0; j + 1 < g_.ny; ++j)
            for (int i = 0; i + 1 < g_.nx; ++i)
                add_cell(i, j);
        return join();
    }

  private:
    // Corners counter-clockwise from the bottom left: (i,j), (i+1,j), (i+1,j+1), (i,j+1); edges
    // bottom, right, top, left, edge k from corner k to corner k+1.
    void add_cell(int i, int j) {
        const std::array<double, 4> v{g_.value(i, j), g_.value(i + 1, j), g_.value(i + 1, j + 1),
                                      g_.value(i, j + 1)};
        if (!std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); })) return;
        const std::array<bool, 4> up{v[0] >= 0, v[1] >= 0, v[2] >= 0, v[3] >= 0};
        std::array<std::uint32_t, 4> id{edges_.horizontal(i, j), edges_.vertical(i + 1, j),
                                        edges_.horizontal(i, j + 1), edges_.vertical(i, j)};
        const std::array<double, 4> cx{g_.x_at(i), g_.x_at(i + 1), g_.x_at(i + 1), g_.x_at(i)};
        const std::array<double, 4> cy{g_.y_at(j), g_.y_at(j), g_.y_at(j + 1), g_.y_at(j + 1)};
        std::array<int, 4> crossed{};
        int count = 0;
        for (int k = 0; k < 4; ++k) {
            const int l = (k + 1) % 4;
            if (up[k] == up[l]) continue;
            crossed[count++] = k;
            if (!point_[id[k]].set) point_[id[k]] = {crossing(cx[k], cy[k], v[k], cx[l], cy[l], v[l]), true};
        }
        if (count == 2) {
            segments_.push_back({id[crossed[0]], id[crossed[1]]});
        } else if (count == 4) {
            // Saddle cell: corners 0 and 2 share a sign. When the centre has their sign the contour
            // separates corners 1 and 3 from it (edges 0-1 and 2-3 pair up), otherwise 0 and 2.
            const bool centre_up = (v[0] + v[1] + v[2] + v[3]) >= 0;
            if (centre_up == up[0]) {
                segments_.push_back({id[0], id[1]});
                segments_.push_back({id[2], id[3]});
            } else {
                segments_.push_back({id[3], id[0]});
                segments_.push_back({id[1], id[2]});
            }
        }
    }

    void link(std::uint32_t edge, std::uint32_t segment) {
        auto& slots = users_[edge];
        (slots[0] == none ? slots[0] : slots[1]) = segment;
    }

    std::uint32_t other_end(std::uint32_t segment, std::uint32_t edge) const {
        return segments_[segment].a == edge ? segments_[segment].b : segments_[segment].a;
    }

    std::uint32_t next_segment(std::uint32_t edge, std::uint32_t from) const {
        const auto& slots = users_[edge];
        if (slots[0] != none && slots[0] != from && !used_[slots[0]]) return slots[0];
        if (slots[1] != none && slots[1] != from && !used_[slots[1]]) return slots[1];
        return none;
    }

    // Walks from `edge` away along unused segments, appending their far ends.
    void walk(std::uint32_t edge, std::uint32_t from, Polyline& out) {
        for (std::uint32_t s = next_segment(edge, from); s != none; s = next_segment(edge, from)) {
            used_[s] = true;
            edge = other_end(s, edge);
            out.push_back(point_[edge].p);
            from = s;
        }
    }

    std::vector<Polyline> join() {
        users_.assign(edges_.count(), {none, none});
        for (std::uint32_t s = 0; s < segments_.size(); ++s) {
            link(segments_[s].a, s);
            link(segments_[s].b, s);
        }
        used_.assign(segments_.size(), false);
        std::vector<Polyline> lines;
        for (std::uint32_t s = 0; s < segments_.size(); ++s) {
            if (used_[s]) continue;
            used_[s] = true;
            Polyline forward{point_[segments_[s].a].p, point_[segments_[s].b].p};
            walk(segments_[s].b, s, forward);
            Polyline backward;
            walk(segments_[s].a, s, backward); // nothing left there when the forward walk closed a loop
            Polyline line(backward.rbegin(), backward.rend());
            line.insert(line.end(), forward.begin(), forward.end());
            lines.push_back(std::move(line));
        }
        return lines;
    }

    struct EdgePoint {
        PlanePoint p;
        bool set = false;
    };

    const SampledGrid& g_;
    EdgeNumbering edges_;
    std::vector<EdgePoint> point_;
    std::vector<Segment> segments_;
    std::vector<std::array<std::uint32_t, 2>> users_;
    std::vector<bool> used_;
};

} // namespace

std::vector<Polyline> zero_contours(const SampledGrid& grid) {
    if (grid.nx < 2 || grid.ny < 2 || grid.values.size() != std::size_t(grid.nx) * std::size_t(grid.ny))
        throw std::invalid_argument("zero_contours: needs at least a 2 x 2 grid with one value per point");
    return Tracer(grid).trace();
}

} // namespace bif::analysis
