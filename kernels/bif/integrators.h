// Everything an ensemble backend needs from kernels/: the steppers, the driver, accessories and
// the Lyapunov helpers. Compiles as host C++ and through NVRTC (after bif/config.h).
#pragma once

#include "bif/accessories.h"
#include "bif/integrate.h"
#include "bif/lyapunov.h"
#include "bif/steppers/dopri5.h"
#include "bif/steppers/iteration.h"
#include "bif/steppers/rk4.h"
#include "bif/steppers/rkc.h"
#include "bif/steppers/rkck45.h"
#include "bif/steppers/rodas4.h"
#include "bif/steppers/rosenbrock23.h"
