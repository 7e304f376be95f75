// The default script (spec §7 get_defscript): what the /script editor offers as a starting point.
// It documents the file's layout in its own comments, so that a technician who downloads it
// (download/pew_script.cfg) or opens it in the editor reads how to write one.

export const DEFAULT_SCRIPT = `# pew_script.cfg - script of the communicator unit
#
# A script is plain text, one statement per line. Lines that begin with '#' are comments and
# empty lines are ignored. The unit runs the script when "Enable script" is set on the Script
# page; it reads the PLC through the service control interface of the COM page.
#
# Sections
#   [init]      runs once after the unit starts or the script was saved
#   [cycle N]   runs every N seconds (1 - 86400)
#   [on FLAG]   runs when the PLC relay FLAG (e.g. R10A) turns on
#
# Statements
#   read  NAME = AREA ADDRESS [TYPE]     read a PLC value; AREA DT, LD, FL, WR, WL, WX, WY,
#                                        or INTERN (the unit's own memory 0 - 32767);
#                                        TYPE INT (default), UINT, DINT, UDINT, REAL, BOOL
#   write AREA ADDRESS = VALUE|NAME [TYPE]  write a value into the PLC (a name keeps its type)
#   file  NAME.csv                        the CSV file the next 'append' statements write;
#                                         %Y %y %m %d %H %M %S %W in NAME put in the date and
#                                         time of each line (audit_%Y%m%d.csv: a file a day)
#   append NAME[, NAME ...]               one line with a time stamp and the values
#   send                                  hand the closed files to the FTP client
#                                         (FTP transmission on the Script page)
#
# Names start with a letter and hold letters, digits and underscores.
# No file is replaced: a name the FTP server (or the unit) has already is sent (or kept) as
# NAME_1.csv, NAME_2.csv ...; a file whose first line names other values than the 'append'
# is kept as it is under such a name, and a new file begins.

[init]
file values.csv

[cycle 60]
# every minute: two temperatures and a counter of the PLC
read temp_in = DT 100 INT
read temp_out = DT 101 INT
read pieces = DT 200 UDINT
append temp_in, temp_out, pieces

[on R10A]
# the PLC asks for the file: send what was written so far
send
`;
