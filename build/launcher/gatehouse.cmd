@echo off
rem `gatehouse [open] [DIR]`: opens DIR (with `open` and no DIR: the current folder) in the Gatehouse desktop app.
rem Installed in <install folder>\resources\bin, which the installer adds to the user's PATH (build/installer.nsh).
rem The command-line tool's other commands (gatehouse run, web, rpc...) come with `npm install -g gatehouse`.
setlocal
set "APP=%~dp0..\..\Gatehouse.exe"
if not exist "%APP%" (
  echo gatehouse: the Gatehouse app is not beside this launcher ^(%~dp0..\..^) 1>&2
  exit /b 1
)
set "DIR=%~1"
if /i "%~1"=="open" (
  set "DIR=%~2"
  if "%~2"=="" set "DIR=."
)
if /i "%~1"=="--help" goto usage
if /i "%~1"=="-h" goto usage
if "%DIR%"=="" (
  start "" "%APP%"
  exit /b 0
)
if not exist "%DIR%\*" (
  echo gatehouse: %DIR% is not a folder 1>&2
  exit /b 2
)
for %%I in ("%DIR%") do set "DIR=%%~fI"
rem "C:\" would end in \" (an escaped quote to the app's argument parser): "C:\." is the same folder.
if "%DIR:~-1%"=="\" set "DIR=%DIR%."
start "" "%APP%" "%DIR%"
exit /b 0
:usage
echo usage: gatehouse [open] [DIR]   open DIR (with open and no DIR: this folder) in the Gatehouse desktop app
exit /b 0
