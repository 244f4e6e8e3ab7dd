// Numbers a person reads back: a default range or a zoomed view's bounds rounded to a few decimal
// digits, so that the study shows 0.075 rather than 1.5*0.05 = 0.07500000000000001, and a zoom
// shows 5.7707 rather than 5.770706494533947, while staying within what the view can tell apart.
#pragma once

namespace bif::study {

// The double nearest to `value` written with `digits` significant decimal digits.
double round_significant(double value, int digits);

// The double nearest to the shortest decimal within resolution/2 of `value`: `value` rounded to
// the power of ten at or below `resolution` (a pixel's width, in the axis's units).
double round_to_resolution(double value, double resolution);

} // namespace bif::study
