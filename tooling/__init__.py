"""The commands writers run and the helpers of the checks (README, "Where things live"); the
engine (`verified`) and the site plugin (`verified_site`) are installed packages."""
