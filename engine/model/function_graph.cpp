#include "engine/model/function_graph.h"

#include <algorithm>

namespace bif::model::detail {

// Tarjan's strongly connected components (Tarjan 1972), iterative so that a long chain of
// functions cannot exhaust the stack. A function is on a cycle when its component has more than
// one member or it calls itself.
std::vector<bool> functions_on_cycles(const std::vector<std::vector<std::size_t>>& calls) {
    const std::size_t n = calls.size();
    constexpr std::size_t kUnvisited = static_cast<std::size_t>(-1);
    std::vector<std::size_t> order(n, kUnvisited), low(n, 0);
    std::vector<bool> on_stack(n, false), cyclic(n, false);
    std::vector<std::size_t> stack;
    std::size_t counter = 0;
    struct Visit {
        std::size_t node;
        std::size_t next_edge;
    };
    for (std::size_t root = 0; root < n; ++root) {
        if (order[root] != kUnvisited) continue;
        std::vector<Visit> visits{{root, 0}};
        order[root] = low[root] = counter++;
        stack.push_back(root);
        on_stack[root] = true;
        while (!visits.empty()) {
            Visit& v = visits.back();
            if (v.next_edge < calls[v.node].size()) {
                const std::size_t w = calls[v.node][v.next_edge++];
                if (w == v.node) cyclic[w] = true;
                if (order[w] == kUnvisited) {
                    order[w] = low[w] = counter++;
                    stack.push_back(w);
                    on_stack[w] = true;
                    visits.push_back({w, 0});
                } else if (on_stack[w]) {
                    low[v.node] = std::min(low[v.node], order[w]);
                }
                continue;
            }
            const std::size_t node = v.node;
            visits.pop_back();
            if (!visits.empty()) low[visits.back().node] = std::min(low[visits.back().node], low[node]);
            if (low[node] != order[node]) continue;
            std::vector<std::size_t> component;
            std::size_t w;
            do {
                w = stack.back();
                stack.pop_back();
                on_stack[w] = false;
                component.push_back(w);
            } while (w != node);
            if (component.size() > 1)
                for (std::size_t c : component)
                    cyclic[c] = true;
        }
    }
    return cyclic;
}

} // namespace bif::model::detail
