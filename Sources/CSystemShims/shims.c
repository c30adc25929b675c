// Intentionally empty: SwiftPM needs one source file to build the CSystemShims module.
#include "CSystemShims.h"
