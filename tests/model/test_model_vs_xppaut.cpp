// Cross-check against XPPAUT 6.11 itself: small models, and the example models in
// resources/models, whose first output row (t = 0: the state variables' initial values, then the
// aux quantities in file order) must match Bifscope's reading of the same file. Exits 77
// (reported as skipped) where xppaut is not installed.
#include "engine/model/parse.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using bif::model::Model;

const char* const kQuirks = R"(# how XPPAUT reads values and evaluates formulas
par a=2*3, b=5 c
init y=2*3
z(0)=a
number n=2*3
x'=0
y'=0
z'=0
sq(u)=u*u
h(a)=a+1
w=b*2
!d=b+1
aux pa=a
aux pb=b
aux pc=c
aux pn=n
aux q1=1+1>2
aux q2=2^3^2
aux q3=-2^2
aux q4=3<2<1
aux q5=mod(-1,3)
aux q6=heav(0)
aux q7=sign(0)
aux q8=2*3>5
aux q9=1&2*0
aux q10=5-2-1
aux q11=8/2/2
aux q12=2+not(0)*3
aux q13=1-1|1
aux q14=-1>0
aux q15=1-2>0
aux q16=1|0&0
aux q17=0&0|1
aux q18=if(1)then(2)else(3)+1
aux q19=1+if(0)then(2)else(3)*2
aux q20=2^(1>0)
aux q21=1.e1+.5e1
aux q22=sq(sq(3))
aux q23=h(10)+a
aux q24=w/2
aux q25=d
aux q26=flr(-1.5)+atan2(1,1)
aux q27=exp(1)+ln(2)+log10(100)
@ total=0
done
)";

const char* const kArrays = R"(%[1..2]
u[j]'=0
v[j]'=0
%
init u[1..2]=[j]*10
init v[1..2]=[j]
x[3..1]'=0
init x[3..1]=[j+1]
par k[1..2]=[j-1]
aux kk[1..2]=k[j]+x[j]
@ total=0
done
)";

std::vector<double> xppaut_first_row(const fs::path& dir, const std::string& text) {
    std::ofstream(dir / "m.ode") << text;
    fs::remove(dir / "output.dat");
    const std::string command = "cd '" + dir.string() + "' && timeout 60 xppaut m.ode -silent > log.txt 2>&1";
    if (std::system(command.c_str()) != 0) return {};
    std::ifstream out(dir / "output.dat");
    std::string line;
    std::getline(out, line);
    std::istringstream row(line);
    std::vector<double> values;
    for (double v; row >> v;)
        values.push_back(v);
    return values;
}

std::vector<double> bifscope_first_row(const std::string& text) {
    const auto r = bif::model::parse_model(text, "m.ode");
    if (!r.model) {
        for (const auto& d : r.diagnostics)
            std::cerr << d.format() << "\n";
        return {};
    }
    const Model& m = *r.model;
    std::vector<double> y, p;
    for (const auto& s : m.states)
        y.push_back(s.initial);
    for (const auto& q : m.parameters)
        p.push_back(q.value);
    for (const auto& d : m.derived)
        p.push_back(m.pool.evaluate(d.formula, y.data(), p.data(), 0.0));
    std::vector<double> row{0.0};
    row.insert(row.end(), y.begin(), y.end());
    for (const auto& a : m.aux)
        row.push_back(m.pool.evaluate(a.formula, y.data(), p.data(), 0.0));
    return row;
}

// The model with options that make XPPAUT's first output row the initial state at t = 0,
// inserted before `done` so that they come last and win; a Poincare map (which outputs only
// section crossings) is switched off by renaming its option into one XPPAUT does not know.
std::string starting_at_zero(const std::string& text) {
    const std::string options = "@ total=0, t0=0, trans=0\n";
    std::istringstream in(text);
    std::string out, line;
    bool inserted = false;
    while (std::getline(in, line)) {
        for (std::size_t at = line.find("poimap="); at != std::string::npos;
             at = line.find("poimap=", at + 8))
            line.insert(at, "ignored");
        if (!inserted && line.rfind("done", 0) == 0) {
            out += options;
            inserted = true;
        }
        out += line + "\n";
    }
    return inserted ? out : out + options;
}

bool compare(const std::string& name, const fs::path& dir, const std::string& text) {
    const std::vector<double> theirs = xppaut_first_row(dir, starting_at_zero(text));
    const std::vector<double> ours = bifscope_first_row(text);
    bool ok = !theirs.empty() && theirs.size() == ours.size();
    for (std::size_t i = 0; ok && i < ours.size(); ++i) {
        // output.dat holds 8 significant digits
        if (std::fabs(theirs[i] - ours[i]) > 1e-7 * std::max(1.0, std::fabs(ours[i]))) {
            std::cerr << name << ": column " << i << ": xppaut " << theirs[i] << ", bifscope " << ours[i]
                      << "\n";
            ok = false;
        }
    }
    if (theirs.size() != ours.size()) {
        std::cerr << name << ": xppaut gave " << theirs.size() << " columns, bifscope " << ours.size()
                  << "\n";
    }
    std::cout << name << ": " << (ok ? "agrees" : "DIFFERS") << " (" << ours.size() << " columns)\n";
    return ok;
}

} // namespace

int main() {
    if (std::system("command -v xppaut > /dev/null 2>&1") != 0) {
        std::cout << "xppaut is not installed; skipped\n";
        return 77;
    }
    std::error_code ec;
    const fs::path dir = fs::temp_directory_path() / ("bifscope-xppaut-" + std::to_string(::getpid()));
    fs::create_directories(dir, ec);
    bool agree = compare("quirks", dir, kQuirks);
    agree = compare("arrays", dir, kArrays) && agree;
    // the example models shipped with Bifscope
    for (const auto& entry : fs::directory_iterator(BIFSCOPE_MODELS_DIR, ec)) {
        if (entry.path().extension() != ".ode") continue;
        std::ifstream in(entry.path());
        std::ostringstream text;
        text << in.rdbuf();
        agree = compare(entry.path().filename().string(), dir, text.str()) && agree;
    }
    fs::remove_all(dir, ec);
    return agree ? 0 : 1;
}
