# overlay.sh - the starting point a calibrated overlay was fitted from
# (sourced by tests/h200_calibration.sh and tests/long/calibrate_reproduce.sh).
#   without_overlay GPU   prints configs/GPU.ini without the two lines that
#                         read its overlay (`[]`, then `include =
#                         GPU.calibrated.ini`), so `atomsim calibrate` starts
#                         from the values the overlay replaced
without_overlay() {
    grep -v -E "^[[:space:]]*(\\[\\]|include[[:space:]]*=[[:space:]]*$1\\.calibrated\\.ini)[[:space:]]*\$" "configs/$1.ini"
}
