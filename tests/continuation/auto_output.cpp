#include "auto_output.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace auto_output {

namespace {

std::vector<double> numbers_of(const std::string& line) {
    std::istringstream in(line);
    std::vector<double> out;
    std::string word;
    while (in >> word) {
        char* end = nullptr;
        const double v = std::strtod(word.c_str(), &end);
        if (end == word.c_str() || *end != '\0')
            throw std::runtime_error("AUTO output: not a number: " + word);
        out.push_back(v);
    }
    return out;
}

std::ifstream open(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("AUTO output: cannot open " + path);
    return in;
}

} // namespace

std::vector<Solution> read_solutions(const std::string& path) {
    std::ifstream in = open(path);
    std::vector<Solution> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const std::vector<double> header = numbers_of(line);
        if (header.size() < 9) throw std::runtime_error("AUTO output: a short header in " + path);
        Solution s;
        s.branch = int(header[0]);
        s.point = int(header[1]);
        s.type = int(header[2]);
        s.label = int(header[3]);
        const int rows = int(header[6]), columns = int(header[7]), lines = int(header[8]);
        std::vector<std::vector<double>> block;
        for (int i = 0; i < lines; ++i) {
            if (!std::getline(in, line))
                throw std::runtime_error("AUTO output: " + path + " ends inside a solution");
            block.push_back(numbers_of(line));
        }
        if (rows < 1 || rows > lines) throw std::runtime_error("AUTO output: a bad NTPL in " + path);
        for (int i = 0; i < rows; ++i) {
            if (int(block[std::size_t(i)].size()) != columns)
                throw std::runtime_error("AUTO output: a solution row of the wrong length in " + path);
            s.rows.push_back(block[std::size_t(i)]);
        }
        // The parameters close the block, seven a row (the last row may be shorter).
        std::size_t first = block.size();
        while (first > std::size_t(rows) && block[first - 1].size() <= 7 &&
               (first == block.size() || block[first - 1].size() == 7))
            --first;
        for (std::size_t i = first; i < block.size(); ++i)
            s.parameters.insert(s.parameters.end(), block[i].begin(), block[i].end());
        if (s.parameters.size() < 11) throw std::runtime_error("AUTO output: too few parameters in " + path);
        out.push_back(std::move(s));
    }
    return out;
}

std::string special_label(int type) {
    switch (type) {
    case 1:
    case 6:
        return "BP";
    case 2:
    case 5:
        return "LP";
    case 3:
        return "H";
    case 7:
        return "PD";
    case 8:
        return "NS";
    default:
        return "";
    }
}

std::vector<std::complex<double>> read_spectrum(const std::string& path, int branch, int point, int count) {
    std::ifstream in = open(path);
    std::vector<std::complex<double>> last;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string b, p;
        int ib = 0, ip = 0;
        if (!(words >> b >> ib >> p >> ip) || b != "BRANCH" || p != "POINT") continue;
        if (ib != branch || std::abs(ip) != point) continue;
        std::string rest;
        std::getline(words, rest);
        std::vector<double> values = numbers_of(rest);
        if (values.empty()) continue; // a Newton iterate's line ("BRANCH 1 N= ..."), not a spectrum
        while (int(values.size()) < 2 * count && std::getline(in, line)) {
            const std::vector<double> more = numbers_of(line);
            values.insert(values.end(), more.begin(), more.end());
        }
        if (int(values.size()) != 2 * count)
            throw std::runtime_error("AUTO output: a short spectrum in " + path);
        last.clear();
        for (int i = 0; i < count; ++i)
            last.emplace_back(values[std::size_t(2 * i)], values[std::size_t(2 * i + 1)]);
    }
    if (last.empty()) throw std::runtime_error("AUTO output: no spectrum for that point in " + path);
    return last;
}

} // namespace auto_output
