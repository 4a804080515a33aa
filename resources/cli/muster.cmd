@echo off
rem `muster`, the command line of the installed desktop app. It runs on the Node.js 22 or 24 on PATH:
rem the app's own Electron binary cannot run scripts (its RunAsNode fuse is off).
where node >nul 2>nul || (echo muster: the command line needs Node.js 22 or 24 ^(LTS^) on PATH; the desktop app itself does not 1>&2 & exit /b 127)
node "%~dp0bin\muster.cjs" %*
